"""The local chat-completions test server now ships in the package (`coach bench judge` runs it outside pytest);
this name stays for the tests and scripts that import it from here."""

from coach.providers.local_server import ChatServer, ReplyFn

__all__ = ["ChatServer", "ReplyFn"]
