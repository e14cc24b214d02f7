"""Content as data: schema, loader (the only reader of content files) and cross-file checks."""
