/*
 * wasivfs.c — the SQLite VFS for wasmsand's WASI guests.
 *
 * SQLite is built with SQLITE_OS_OTHER=1, which leaves out os_unix.c
 * (fcntl locks, fchown, mmap, shared memory: none of them in WASI
 * preview1). This file gives SQLite the operating-system layer it needs
 * with plain POSIX calls that wasi-libc maps onto WASI: open, pread,
 * pwrite, ftruncate, fsync, fstat, unlink, access.
 *
 * Locking is a no-op: the sandbox's processes share one in-memory
 * filesystem, and two writers on the same database at the same moment are
 * not protected from each other (WAL mode is compiled out). Temporary
 * files live in /tmp and are unlinked when closed.
 */
#include "sqlite3.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef struct WasiFile {
	sqlite3_file base; /* must come first */
	int fd;
	char *unlinkOnClose; /* path to remove in xClose, or NULL */
} WasiFile;

static int wasiLastErrno = 0;

/* ---- file methods ---- */

static int wasiClose(sqlite3_file *f) {
	WasiFile *p = (WasiFile *)f;
	if (p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
	if (p->unlinkOnClose) {
		unlink(p->unlinkOnClose);
		sqlite3_free(p->unlinkOnClose);
		p->unlinkOnClose = NULL;
	}
	return SQLITE_OK;
}

static int wasiRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
	WasiFile *p = (WasiFile *)f;
	int got = 0;
	while (got < amt) {
		ssize_t n = pread(p->fd, (char *)buf + got, (size_t)(amt - got), (off_t)(off + got));
		if (n < 0) {
			if (errno == EINTR) continue;
			wasiLastErrno = errno;
			return SQLITE_IOERR_READ;
		}
		if (n == 0) break;
		got += (int)n;
	}
	if (got < amt) {
		/* SQLite requires the unread tail to be zeroed. */
		memset((char *)buf + got, 0, (size_t)(amt - got));
		return SQLITE_IOERR_SHORT_READ;
	}
	return SQLITE_OK;
}

static int wasiWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
	WasiFile *p = (WasiFile *)f;
	int done = 0;
	while (done < amt) {
		ssize_t n = pwrite(p->fd, (const char *)buf + done, (size_t)(amt - done), (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR) continue;
			wasiLastErrno = errno;
			return errno == ENOSPC ? SQLITE_FULL : SQLITE_IOERR_WRITE;
		}
		if (n == 0) return SQLITE_IOERR_WRITE;
		done += (int)n;
	}
	return SQLITE_OK;
}

static int wasiTruncate(sqlite3_file *f, sqlite3_int64 size) {
	WasiFile *p = (WasiFile *)f;
	if (ftruncate(p->fd, (off_t)size) != 0) {
		wasiLastErrno = errno;
		return SQLITE_IOERR_TRUNCATE;
	}
	return SQLITE_OK;
}

static int wasiSync(sqlite3_file *f, int flags) {
	(void)f;
	(void)flags;
	/* The filesystem is in memory: there is nothing to flush. */
	return SQLITE_OK;
}

static int wasiFileSize(sqlite3_file *f, sqlite3_int64 *size) {
	WasiFile *p = (WasiFile *)f;
	struct stat st;
	if (fstat(p->fd, &st) != 0) {
		wasiLastErrno = errno;
		return SQLITE_IOERR_FSTAT;
	}
	*size = (sqlite3_int64)st.st_size;
	return SQLITE_OK;
}

static int wasiLock(sqlite3_file *f, int level) {
	(void)f;
	(void)level;
	return SQLITE_OK;
}

static int wasiUnlock(sqlite3_file *f, int level) {
	(void)f;
	(void)level;
	return SQLITE_OK;
}

static int wasiCheckReservedLock(sqlite3_file *f, int *out) {
	(void)f;
	*out = 0;
	return SQLITE_OK;
}

static int wasiFileControl(sqlite3_file *f, int op, void *arg) {
	(void)f;
	(void)arg;
	switch (op) {
	case SQLITE_FCNTL_LOCKSTATE:
		return SQLITE_NOTFOUND;
	}
	return SQLITE_NOTFOUND;
}

static int wasiSectorSize(sqlite3_file *f) {
	(void)f;
	return 512;
}

static int wasiDeviceCharacteristics(sqlite3_file *f) {
	(void)f;
	return SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static const sqlite3_io_methods wasiIoMethods = {
	1, /* iVersion: no shared memory, no mmap */
	wasiClose,
	wasiRead,
	wasiWrite,
	wasiTruncate,
	wasiSync,
	wasiFileSize,
	wasiLock,
	wasiUnlock,
	wasiCheckReservedLock,
	wasiFileControl,
	wasiSectorSize,
	wasiDeviceCharacteristics,
	0, 0, 0, 0, /* xShm* */
	0, 0,       /* xFetch, xUnfetch */
};

/* ---- VFS methods ---- */

static unsigned int tempCounter = 0;

/* tempName writes a fresh /tmp path into buf (size n). */
static void tempName(char *buf, size_t n) {
	unsigned char r[8];
	sqlite3_randomness(sizeof r, r);
	snprintf(buf, n, "/tmp/etilqs_%02x%02x%02x%02x%02x%02x%02x%02x_%u", r[0], r[1], r[2], r[3], r[4], r[5],
	         r[6], r[7], ++tempCounter);
}

static int wasiOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
	(void)vfs;
	WasiFile *p = (WasiFile *)f;
	char tmp[64];
	int oflags = 0;
	memset(p, 0, sizeof *p);
	p->fd = -1;

	if (name == NULL) {
		tempName(tmp, sizeof tmp);
		name = tmp;
		flags |= SQLITE_OPEN_DELETEONCLOSE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE;
	}
	if (flags & SQLITE_OPEN_READWRITE) {
		oflags = O_RDWR;
	} else {
		oflags = O_RDONLY;
	}
	if (flags & SQLITE_OPEN_CREATE) oflags |= O_CREAT;
	if (flags & SQLITE_OPEN_EXCLUSIVE) oflags |= O_EXCL;

	int fd = open(name, oflags, 0644);
	if (fd < 0 && (flags & SQLITE_OPEN_READWRITE) && errno != EISDIR && !(flags & SQLITE_OPEN_CREATE && errno == ENOENT)) {
		/* Like os_unix.c: fall back to read-only. */
		int e = errno;
		fd = open(name, O_RDONLY);
		if (fd >= 0) {
			flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY;
		} else {
			errno = e;
		}
	}
	if (fd < 0) {
		wasiLastErrno = errno;
		return SQLITE_CANTOPEN;
	}
	p->fd = fd;
	if (flags & SQLITE_OPEN_DELETEONCLOSE) {
		p->unlinkOnClose = sqlite3_mprintf("%s", name);
	}
	if (outFlags) *outFlags = flags;
	p->base.pMethods = &wasiIoMethods;
	return SQLITE_OK;
}

static int wasiDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
	(void)vfs;
	(void)syncDir;
	if (unlink(name) != 0) {
		if (errno == ENOENT) return SQLITE_IOERR_DELETE_NOENT;
		wasiLastErrno = errno;
		return SQLITE_IOERR_DELETE;
	}
	return SQLITE_OK;
}

static int wasiAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
	(void)vfs;
	struct stat st;
	switch (flags) {
	case SQLITE_ACCESS_EXISTS:
		/* An empty file counts as missing, as in os_unix.c. */
		*out = stat(name, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > 0);
		break;
	case SQLITE_ACCESS_READWRITE:
		*out = access(name, R_OK | W_OK) == 0;
		break;
	default:
		*out = access(name, R_OK) == 0;
	}
	return SQLITE_OK;
}

static int wasiFullPathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
	(void)vfs;
	if (name[0] == '/') {
		sqlite3_snprintf(n, out, "%s", name);
		return SQLITE_OK;
	}
	char cwd[1024];
	if (getcwd(cwd, sizeof cwd) == NULL) {
		wasiLastErrno = errno;
		return SQLITE_CANTOPEN;
	}
	if (strlen(cwd) + strlen(name) + 2 > (size_t)n) return SQLITE_CANTOPEN;
	if (strcmp(cwd, "/") == 0) {
		sqlite3_snprintf(n, out, "/%s", name);
	} else {
		sqlite3_snprintf(n, out, "%s/%s", cwd, name);
	}
	return SQLITE_OK;
}

static int wasiRandomness(sqlite3_vfs *vfs, int n, char *out) {
	(void)vfs;
	/* getentropy reads WASI random_get: the sandbox's seeded stream. */
	int done = 0;
	while (done < n) {
		int k = n - done > 256 ? 256 : n - done;
		if (getentropy(out + done, (size_t)k) != 0) break;
		done += k;
	}
	return done;
}

static int wasiSleep(sqlite3_vfs *vfs, int us) {
	(void)vfs;
	struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
	nanosleep(&ts, NULL);
	return us;
}

static int wasiCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
	(void)vfs;
	/* Julian day in milliseconds. */
	static const sqlite3_int64 unixEpoch = 24405875 * (sqlite3_int64)8640000;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	*out = unixEpoch + (sqlite3_int64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return SQLITE_OK;
}

static int wasiCurrentTime(sqlite3_vfs *vfs, double *out) {
	sqlite3_int64 t;
	wasiCurrentTimeInt64(vfs, &t);
	*out = t / 86400000.0;
	return SQLITE_OK;
}

static int wasiGetLastError(sqlite3_vfs *vfs, int n, char *out) {
	(void)vfs;
	if (n > 0) sqlite3_snprintf(n, out, "%s", strerror(wasiLastErrno));
	return wasiLastErrno;
}

static sqlite3_vfs wasiVfs = {
	2,                /* iVersion */
	sizeof(WasiFile), /* szOsFile */
	1024,             /* mxPathname */
	0,                /* pNext */
	"wasi",           /* zName */
	0,                /* pAppData */
	wasiOpen,
	wasiDelete,
	wasiAccess,
	wasiFullPathname,
	0, 0, 0, 0, /* xDlOpen, xDlError, xDlSym, xDlClose */
	wasiRandomness,
	wasiSleep,
	wasiCurrentTime,
	wasiGetLastError,
	wasiCurrentTimeInt64,
	0, 0, 0, /* xSetSystemCall, xGetSystemCall, xNextSystemCall */
};

int sqlite3_os_init(void) {
	return sqlite3_vfs_register(&wasiVfs, 1);
}

int sqlite3_os_end(void) {
	return SQLITE_OK;
}
