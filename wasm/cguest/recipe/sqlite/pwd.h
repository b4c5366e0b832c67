/* pwd.h for the SQLite shell under WASI: see shellcompat.h. */
