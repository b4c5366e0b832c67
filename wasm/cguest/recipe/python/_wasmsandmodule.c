/*
 * _wasmsand — CPython's door to the wasmsand host's process and HTTP
 * functions.
 *
 * Compiled into python3.wasm (Modules/Setup.local). os.py takes pipe,
 * system, waitpid, kill and WNOHANG from here on WASI, and subprocess.py
 * starts commands with spawn, so subprocess.run, os.system and os.popen
 * run commands in the sandbox like the shell does. urllib.request's
 * handler for http and https URLs makes its requests with http_open,
 * http_write, http_wait, http_read and http_close, the host's http_*
 * functions (sandbox/net.go has their ABI), so the sandbox's network
 * policy decides each one.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include <errno.h>
#include <string.h>

#include "wasmsand_proc.h"

#define WASMSAND_IMPORT(name) __attribute__((import_module("wasmsand"), import_name(name)))

WASMSAND_IMPORT("http_open")
uint32_t wasmsand_import_http_open(const char *head, uint32_t head_len, int64_t body_len, uint32_t *handle);
WASMSAND_IMPORT("http_write")
uint32_t wasmsand_import_http_write(uint32_t handle, const char *buf, uint32_t len);
WASMSAND_IMPORT("http_wait")
uint32_t wasmsand_import_http_wait(uint32_t handle, uint32_t *head_len);
WASMSAND_IMPORT("http_head")
uint32_t wasmsand_import_http_head(uint32_t handle, char *buf, uint32_t len);
WASMSAND_IMPORT("http_read")
uint32_t wasmsand_import_http_read(uint32_t handle, char *buf, uint32_t len, uint32_t *n);
WASMSAND_IMPORT("http_close")
uint32_t wasmsand_import_http_close(uint32_t handle);
WASMSAND_IMPORT("http_error")
uint32_t wasmsand_import_http_error(char *buf, uint32_t len, uint32_t *full);

/* The exit status is stored in a wait status as POSIX does (code << 8),
   so os.waitstatus_to_exitcode and subprocess read it unchanged. */
#define WASMSAND_WNOHANG 1

static PyObject *errno_error(int en, PyObject *filename) {
	errno = en;
	if (filename) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, filename);
	return PyErr_SetFromErrno(PyExc_OSError);
}

/* free_list frees a NULL-terminated list made by to_list. */
static void free_list(char **list) {
	if (!list) return;
	for (char **p = list; *p; p++) PyMem_Free(*p);
	PyMem_Free(list);
}

/* to_list turns a sequence of str/bytes/path-like into a NULL-terminated
   list of C strings. */
static char **to_list(PyObject *seq, const char *what) {
	PyObject *fast = PySequence_Fast(seq, what);
	if (!fast) return NULL;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
	char **list = PyMem_Calloc((size_t)n + 1, sizeof(char *));
	if (!list) {
		Py_DECREF(fast);
		PyErr_NoMemory();
		return NULL;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *b = NULL;
		if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(fast, i), &b)) {
			free_list(list);
			Py_DECREF(fast);
			return NULL;
		}
		const char *s = PyBytes_AS_STRING(b);
		if ((Py_ssize_t)strlen(s) != PyBytes_GET_SIZE(b)) {
			Py_DECREF(b);
			free_list(list);
			Py_DECREF(fast);
			PyErr_Format(PyExc_ValueError, "embedded null byte in %s", what);
			return NULL;
		}
		list[i] = PyMem_Malloc((size_t)PyBytes_GET_SIZE(b) + 1);
		if (!list[i]) {
			Py_DECREF(b);
			free_list(list);
			Py_DECREF(fast);
			PyErr_NoMemory();
			return NULL;
		}
		memcpy(list[i], s, (size_t)PyBytes_GET_SIZE(b) + 1);
		Py_DECREF(b);
	}
	Py_DECREF(fast);
	return list;
}

PyDoc_STRVAR(spawn_doc, "spawn(argv, env, cwd, stdin, stdout, stderr) -> pid\n\n"
                        "Start argv[0] (found like the shell finds commands) with argv, env (a list\n"
                        "of 'KEY=VALUE', or None for os.environ) and cwd (None for the current\n"
                        "directory), with the three file descriptors as its standard streams.");

static PyObject *wasmsand_spawn_py(PyObject *self, PyObject *args) {
	PyObject *argv_o, *env_o, *cwd_o;
	int fin, fout, ferr;
	if (!PyArg_ParseTuple(args, "OOOiii:spawn", &argv_o, &env_o, &cwd_o, &fin, &fout, &ferr)) return NULL;
	char **argv = to_list(argv_o, "argv");
	if (!argv) return NULL;
	if (!argv[0]) {
		free_list(argv);
		PyErr_SetString(PyExc_ValueError, "spawn: empty argv");
		return NULL;
	}
	char **envp = NULL;
	if (env_o != Py_None && !(envp = to_list(env_o, "env"))) {
		free_list(argv);
		return NULL;
	}
	PyObject *cwd_b = NULL;
	if (cwd_o != Py_None && !PyUnicode_FSConverter(cwd_o, &cwd_b)) {
		free_list(argv);
		free_list(envp);
		return NULL;
	}
	int pid = 0;
	int en = wasmsand_spawn(argv, envp, cwd_b ? PyBytes_AS_STRING(cwd_b) : NULL, fin, fout, ferr, &pid);
	PyObject *name = PyUnicode_DecodeFSDefault(argv[0]);
	free_list(argv);
	free_list(envp);
	Py_XDECREF(cwd_b);
	if (en != 0) {
		PyObject *r = errno_error(en, name);
		Py_XDECREF(name);
		return r;
	}
	Py_XDECREF(name);
	return PyLong_FromLong(pid);
}

PyDoc_STRVAR(waitpid_doc, "waitpid(pid, options) -> (pid, status)\n\n"
                          "Wait for a command started by spawn, like os.waitpid: with WNOHANG,\n"
                          "(0, 0) while it still runs.");

static PyObject *wasmsand_waitpid_py(PyObject *self, PyObject *args) {
	int pid, options, status = 0, en;
	if (!PyArg_ParseTuple(args, "ii:waitpid", &pid, &options)) return NULL;
	if (options & WASMSAND_WNOHANG) {
		en = wasmsand_wait_timeout(pid, 0, &status);
		if (en == EAGAIN) return Py_BuildValue("(ii)", 0, 0);
	} else {
		Py_BEGIN_ALLOW_THREADS
		en = wasmsand_wait(pid, &status);
		Py_END_ALLOW_THREADS
	}
	if (en != 0) return errno_error(en, NULL);
	return Py_BuildValue("(ii)", pid, (status & 0xff) << 8);
}

PyDoc_STRVAR(kill_doc, "kill(pid, signal)\n\nEnd a command started by spawn (it exits with status 143).");

static PyObject *wasmsand_kill_py(PyObject *self, PyObject *args) {
	int pid, sig;
	if (!PyArg_ParseTuple(args, "ii:kill", &pid, &sig)) return NULL;
	if (sig == 0) Py_RETURN_NONE;
	int en = wasmsand_kill(pid);
	if (en != 0) return errno_error(en, NULL);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(pipe_doc, "pipe() -> (read_fd, write_fd)\n\nCreate a pipe, like os.pipe.");

static PyObject *wasmsand_pipe_py(PyObject *self, PyObject *unused) {
	int fds[2];
	int en = wasmsand_pipe(fds);
	if (en != 0) return errno_error(en, NULL);
	return Py_BuildValue("(ii)", fds[0], fds[1]);
}

PyDoc_STRVAR(system_doc, "system(command) -> wait status\n\n"
                         "Run command with /bin/sh -c, like os.system; the result is a wait\n"
                         "status (exit code << 8).");

static PyObject *wasmsand_system_py(PyObject *self, PyObject *args) {
	PyObject *cmd_b = NULL;
	if (!PyArg_ParseTuple(args, "O&:system", PyUnicode_FSConverter, &cmd_b)) return NULL;
	int r;
	Py_BEGIN_ALLOW_THREADS
	r = wasmsand_system(PyBytes_AS_STRING(cmd_b));
	Py_END_ALLOW_THREADS
	Py_DECREF(cmd_b);
	if (r == -1) return PyErr_SetFromErrno(PyExc_OSError);
	return PyLong_FromLong(r);
}

/* http_fail raises OSError(errno, message) with the host's message for the
   last failed http_* call (for example "wasmsand: network access to
   http://x/ is not allowed"); ENOTSUP means the sandbox has no network. */
static PyObject *http_fail(uint32_t en) {
	char buf[1024];
	uint32_t full = 0;
	const char *msg = NULL;
	if (en == ENOTSUP) {
		msg = "wasmsand: this sandbox has no network";
	} else if (wasmsand_import_http_error(buf, sizeof buf - 1, &full) == 0 && full > 0) {
		buf[full < sizeof buf - 1 ? full : sizeof buf - 1] = 0;
		msg = buf;
	} else {
		msg = strerror((int)en);
	}
	PyObject *v = Py_BuildValue("(is)", (int)en, msg);
	if (v) {
		PyErr_SetObject(PyExc_OSError, v);
		Py_DECREF(v);
	}
	return NULL;
}

PyDoc_STRVAR(http_open_doc, "http_open(head, body_len) -> handle\n\n"
                            "Start a request: head is b'METHOD URL\\n' then b'Name: value\\n' lines;\n"
                            "body_len is the length of the body to write, 0 for none, -1 if unknown.\n"
                            "OSError (PermissionError when the sandbox's policy denies it) on failure.");

static PyObject *wasmsand_http_open_py(PyObject *self, PyObject *args) {
	Py_buffer head;
	long long body_len;
	if (!PyArg_ParseTuple(args, "y*L:http_open", &head, &body_len)) return NULL;
	uint32_t h = 0;
	uint32_t en = wasmsand_import_http_open(head.buf, (uint32_t)head.len, (int64_t)body_len, &h);
	PyBuffer_Release(&head);
	if (en != 0) return http_fail(en);
	return PyLong_FromUnsignedLong(h);
}

PyDoc_STRVAR(http_write_doc, "http_write(handle, data)\n\nSend the next chunk of the request body.");

static PyObject *wasmsand_http_write_py(PyObject *self, PyObject *args) {
	unsigned int h;
	Py_buffer data;
	if (!PyArg_ParseTuple(args, "Iy*:http_write", &h, &data)) return NULL;
	uint32_t en = 0;
	const char *p = data.buf;
	Py_ssize_t left = data.len;
	Py_BEGIN_ALLOW_THREADS
	while (left > 0 && en == 0) {
		uint32_t k = left > (1 << 20) ? (1 << 20) : (uint32_t)left;
		en = wasmsand_import_http_write(h, p, k);
		p += k;
		left -= k;
	}
	Py_END_ALLOW_THREADS
	PyBuffer_Release(&data);
	if (en != 0) return http_fail(en);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(http_wait_doc, "http_wait(handle) -> head\n\n"
                            "End the request body, wait for the response and return its head:\n"
                            "b'HTTP/1.1 200 OK\\n' then b'Name: value\\n' lines.");

static PyObject *wasmsand_http_wait_py(PyObject *self, PyObject *args) {
	unsigned int h;
	if (!PyArg_ParseTuple(args, "I:http_wait", &h)) return NULL;
	uint32_t n = 0, en;
	Py_BEGIN_ALLOW_THREADS
	en = wasmsand_import_http_wait(h, &n);
	Py_END_ALLOW_THREADS
	if (en != 0) return http_fail(en);
	PyObject *b = PyBytes_FromStringAndSize(NULL, n);
	if (!b) return NULL;
	if (n > 0 && (en = wasmsand_import_http_head(h, PyBytes_AS_STRING(b), n)) != 0) {
		Py_DECREF(b);
		return http_fail(en);
	}
	return b;
}

PyDoc_STRVAR(http_read_doc, "http_read(handle, n) -> bytes\n\n"
                            "Read at most n bytes of the response body; b'' at its end.");

static PyObject *wasmsand_http_read_py(PyObject *self, PyObject *args) {
	unsigned int h;
	Py_ssize_t want;
	if (!PyArg_ParseTuple(args, "In:http_read", &h, &want)) return NULL;
	if (want <= 0) return PyBytes_FromStringAndSize(NULL, 0);
	if (want > (1 << 20)) want = 1 << 20;
	PyObject *b = PyBytes_FromStringAndSize(NULL, want);
	if (!b) return NULL;
	uint32_t n = 0, en;
	Py_BEGIN_ALLOW_THREADS
	en = wasmsand_import_http_read(h, PyBytes_AS_STRING(b), (uint32_t)want, &n);
	Py_END_ALLOW_THREADS
	if (en != 0) {
		Py_DECREF(b);
		return http_fail(en);
	}
	if ((Py_ssize_t)n < want && _PyBytes_Resize(&b, n) < 0) return NULL;
	return b;
}

PyDoc_STRVAR(http_close_doc, "http_close(handle)\n\nEnd a request and free its handle.");

static PyObject *wasmsand_http_close_py(PyObject *self, PyObject *args) {
	unsigned int h;
	if (!PyArg_ParseTuple(args, "I:http_close", &h)) return NULL;
	uint32_t en = wasmsand_import_http_close(h);
	if (en != 0) return http_fail(en);
	Py_RETURN_NONE;
}

static PyMethodDef wasmsand_methods[] = {
	{"http_open", wasmsand_http_open_py, METH_VARARGS, http_open_doc},
	{"http_write", wasmsand_http_write_py, METH_VARARGS, http_write_doc},
	{"http_wait", wasmsand_http_wait_py, METH_VARARGS, http_wait_doc},
	{"http_read", wasmsand_http_read_py, METH_VARARGS, http_read_doc},
	{"http_close", wasmsand_http_close_py, METH_VARARGS, http_close_doc},
	{"spawn", wasmsand_spawn_py, METH_VARARGS, spawn_doc},
	{"waitpid", wasmsand_waitpid_py, METH_VARARGS, waitpid_doc},
	{"kill", wasmsand_kill_py, METH_VARARGS, kill_doc},
	{"pipe", wasmsand_pipe_py, METH_NOARGS, pipe_doc},
	{"system", wasmsand_system_py, METH_VARARGS, system_doc},
	{NULL, NULL, 0, NULL},
};

static int wasmsand_exec(PyObject *m) {
	return PyModule_AddIntConstant(m, "WNOHANG", WASMSAND_WNOHANG);
}

static PyModuleDef_Slot wasmsand_slots[] = {
	{Py_mod_exec, wasmsand_exec},
	{0, NULL},
};

static struct PyModuleDef wasmsand_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "_wasmsand",
	.m_doc = "The wasmsand host's process functions (spawn, waitpid, kill, pipe, system) and HTTP\n"
	         "functions (http_open, http_write, http_wait, http_read, http_close).",
	.m_size = 0,
	.m_methods = wasmsand_methods,
	.m_slots = wasmsand_slots,
};

PyMODINIT_FUNC PyInit__wasmsand(void) { return PyModuleDef_Init(&wasmsand_module); }
