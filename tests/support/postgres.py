"""A throwaway PostgreSQL 15 from Debian's binaries: initdb in a temp folder, a free port, trust auth on 127.0.0.1.

Used by scripts/test.sh (`python tests/support/postgres.py start` prints its folder and URL; `stop FOLDER`), and by the
outage tests, which need a server of their own to stop and start again. As root it runs the server as the
`postgres` user (initdb refuses root).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

PG_BIN = Path(os.environ.get("COACH_PG_BIN", "/usr/lib/postgresql/15/bin"))
DATABASE = "coach_test"


def available() -> bool:
    return (PG_BIN / "initdb").is_file() and (PG_BIN / "pg_ctl").is_file()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


class PostgresServer:
    """`folder` must be reachable by the postgres user; by default a fresh one under the temp folder."""

    def __init__(self, folder: Path | None = None) -> None:
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="coach-pg-"))
            folder.chmod(0o755)
        self.folder = folder
        self.data = folder / "data"
        self.port_file = folder / "port"

    @property
    def port(self) -> int:
        return int(self.port_file.read_text())

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *cmd: str) -> None:
        done = subprocess.run(_as_owner(list(cmd)), capture_output=True, text=True, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{Path(cmd[0]).name} failed ({done.returncode}): {done.stderr.strip() or done.stdout}")

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.folder, pw.pw_uid, pw.pw_gid)
        self.port_file.write_text(str(_free_port()))
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", DATABASE)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"),
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    """`start` makes a server in a new temp folder and prints `FOLDER URL`; `stop FOLDER` ends it and removes it."""
    if argv == ["start"]:
        server = PostgresServer()
        server.init()
        print(server.folder, server.url)
    elif len(argv) == 2 and argv[0] == "stop":
        PostgresServer(Path(argv[1])).destroy()
    else:
        print("usage: postgres.py start | stop FOLDER", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
