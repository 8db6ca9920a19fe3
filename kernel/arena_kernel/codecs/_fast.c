/* The usual message of the line and jsonl codecs, compiled: one whole line read, one
 * message written (arena_kernel.codecs.compiled); and the usual round trip of a channel
 * on them: the request written on the wall clock (Channel.ask) and the one whole line read
 * that answers it (Channel._on_data's first step; arena_kernel.referee.hot_path).
 *
 * Every function here does what the Python code of the codecs and the channel does in
 * the same case, step by step, and hands any other case to that code before it has
 * changed anything: the Python is the reference, and the tests run both. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    PyObject *line_decoder;  /* the exact types whose reads are decoded here */
    PyObject *jsonl_decoder;
    PyObject *line_codec;
    PyObject *jsonl_codec;
    PyObject *scan_once;  /* json's C scanner */
    PyObject *encode_json; /* the C encoder JsonlCodec's _encode calls, or None */
    PyObject *wire_text;
    PyObject *monotonic;
    PyObject *create_future; /* asyncio's BaseEventLoop.create_future */
    PyObject *future_type;   /* asyncio.Future, what it makes */
    Py_ssize_t max_logged;
    Py_ssize_t max_depth;
} Config;

static Config config;
static int codecs_ready = 0;
static int channels_ready = 0;

/* Interned attribute names and constants. */
static PyObject *s_closed, *s_waiter, *s_cpu, *s_owed, *s_deadline, *s_decoder, *s_sent_at,
    *s_log, *s_record, *s_seat, *s_answered, *s_buf, *s_skipping, *s_max, *s_loop,
    *s_create_future, *s_codec, *s_encode, *s_pending_bytes, *s_check_at, *s_connection,
    *s_write, *s_end, *s_timer, *s_timer_at, *s_cancel, *s_set_timer, *s_request, *s_done,
    *s_set_result, *s_on_data, *s_recv, *s_send, *s_zero_float, *s_zero_int,
    *s_empty, *s_loop_kwnames, *s_read_once, *s_not_read, *s_drain;

/* ---- slots read as fields ------------------------------------------------------------ */

/* The channel, the line decoder and the event log keep their state in __slots__: a slot is
 * a field of the object, at an offset its member descriptor holds. The compiled path reads
 * and writes those fields directly (as the descriptor does), on objects of exactly the
 * configured types (or a subclass of the channel, whose base slots stay where they are). */

enum {
    C_CLOSED, C_WAITER, C_CPU, C_OWED, C_DEADLINE, C_DECODER, C_SENT_AT, C_LOG, C_SEAT,
    C_ANSWERED, C_LOOP, C_CODEC, C_PENDING_BYTES, C_CHECK_AT, C_CONNECTION, C_TIMER,
    C_TIMER_AT, C_INBOX, C_FIELDS
};
static const char *const channel_names[C_FIELDS] = {
    "closed", "_waiter", "_cpu", "_owed", "_deadline", "_decoder", "_sent_at", "log", "seat",
    "answered", "_loop", "codec", "_pending_bytes", "_check_at", "connection", "_timer",
    "_timer_at", "_inbox"};
static Py_ssize_t channel_at[C_FIELDS];
static PyTypeObject *channel_type = NULL;

enum { D_BUF, D_SKIPPING, D_MAX, D_FIELDS };
static const char *const decoder_names[D_FIELDS] = {"_buf", "_skipping", "_max"};
static Py_ssize_t decoder_at[D_FIELDS];

enum { R_MESSAGE, R_FAULT, R_ELAPSED, R_LIMIT, R_UNSOLICITED, R_CPU, R_FIELDS };
static const char *const reply_names[R_FIELDS] = {"message", "fault", "elapsed", "limit",
                                                  "unsolicited", "cpu"};
static Py_ssize_t reply_at[R_FIELDS];
static PyTypeObject *reply_type = NULL;

static const char *const log_names[1] = {"record"};
static Py_ssize_t log_at[1];
static PyTypeObject *log_type = NULL;

enum { F_CLOSING, F_ON_DATA, F_OUT, F_RFD, F_WFD, F_WRITABLE, F_FIELDS };
static const char *const connection_names[F_FIELDS] = {"_closing", "_on_data", "_out", "_rfd",
                                                       "_wfd", "_writable"};
static Py_ssize_t connection_at[F_FIELDS];
static PyTypeObject *connection_type = NULL;
static PyObject *connection_write = NULL; /* FdConnection.write */
static char *read_buffer = NULL;
static Py_ssize_t read_size = 0;

#define FIELD(obj, offsets, i) (*(PyObject **)((char *)(obj) + (offsets)[i]))

#define MOST_FIELDS 32

/* The offsets of the slots ``names`` of ``type``, into ``offsets`` once all are found: 0,
 * or -1 with an error (a name that is not a slot of an object), ``offsets`` unchanged. */
static int slot_offsets(PyObject *type, const char *const *names, Py_ssize_t *offsets,
                        int count) {
    Py_ssize_t found[MOST_FIELDS];
    if (count > MOST_FIELDS) {
        PyErr_SetString(PyExc_SystemError, "too many fields");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *descr = PyObject_GetAttrString(type, names[i]);
        if (descr == NULL) return -1;
        int slot = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                   ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        if (slot) found[i] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_DECREF(descr);
        if (!slot) {
            PyErr_Format(PyExc_TypeError, "%R.%s is not a slot", type, names[i]);
            return -1;
        }
    }
    memcpy(offsets, found, sizeof(Py_ssize_t) * (size_t)count);
    return 0;
}

/* Whether every one of the fields is set (an unset slot is Python's to report). */
static int all_set(PyObject *obj, const Py_ssize_t *offsets, int count) {
    for (int i = 0; i < count; i++) {
        if (FIELD(obj, offsets, i) == NULL) return 0;
    }
    return 1;
}

/* Store a new reference to ``value`` in a field, as a slot's assignment does. */
static void field_set(PyObject *obj, const Py_ssize_t *offsets, int i, PyObject *value) {
    PyObject *old = FIELD(obj, offsets, i);
    Py_INCREF(value);
    FIELD(obj, offsets, i) = value;
    Py_XDECREF(old);
}

/* Keep new references to ``values`` in ``targets`` (dropping the old ones if ``had``). */
static int replace_objects(PyObject **targets[], PyObject *values[], size_t count, int had) {
    for (size_t i = 0; i < count; i++) {
        Py_INCREF(values[i]);
        if (had) Py_DECREF(*targets[i]);
        *targets[i] = values[i];
    }
    return 0;
}

/* A field's float (the channel's stamps are floats): -1.0 with an error set otherwise. */
static double field_float(PyObject *obj, int i) {
    PyObject *value = FIELD(obj, channel_at, i);
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "%s", channel_names[i]);
        return -1.0;
    }
    if (PyFloat_CheckExact(value)) return PyFloat_AS_DOUBLE(value);
    return PyFloat_AsDouble(value);
}

/* Whether ``obj`` is a channel whose fields are all set. */
static int is_channel(PyObject *obj) {
    return channel_type != NULL && PyObject_TypeCheck(obj, channel_type) &&
           all_set(obj, channel_at, C_FIELDS);
}

/* A log entry: (stamp, kind, seat, bytes or text, elapsed, CPU time), a new reference or
 * NULL with an error. None of its items can hold a reference to anything, so the
 * collector, which would stop tracking it at its first look, does not track it at all. */
static PyObject *log_entry(PyObject *stamp, PyObject *kind, PyObject *seat, PyObject *text,
                           PyObject *elapsed) {
    PyObject *entry = PyTuple_Pack(6, stamp, kind, seat, text, elapsed, Py_None);
    if (entry != NULL && PyFloat_CheckExact(stamp) && PyUnicode_CheckExact(kind) &&
        (seat == Py_None || PyLong_CheckExact(seat)) &&
        (PyBytes_CheckExact(text) || PyUnicode_CheckExact(text)) &&
        (elapsed == Py_None || PyFloat_CheckExact(elapsed))) {
        PyObject_GC_UnTrack(entry);
    }
    return entry;
}

/* ``log.record(entry)``, the slot read as a field on an EventLog: 0, or -1 with an error. */
static int record(PyObject *log, PyObject *entry) {
    PyObject *recorded;
    if (Py_TYPE(log) == log_type && FIELD(log, log_at, 0) != NULL) {
        recorded = PyObject_CallOneArg(FIELD(log, log_at, 0), entry);
    } else {
        recorded = PyObject_CallMethodOneArg(log, s_record, entry);
    }
    if (recorded == NULL) return -1;
    Py_DECREF(recorded);
    return 0;
}


/* ---- decoding one whole line ------------------------------------------------------ */

/* A JSON text of null, true, false, integers of up to 18 digits, strings without escapes
 * or control characters, arrays and objects (white space anywhere JSON allows it), nested
 * no deeper than the codec allows: what json.loads makes of it, parsed here. Anything else
 * (a float, an escape, a big integer, bad JSON) is json's to parse or to reject. */
typedef struct {
    const char *at;
    const char *end;
} Text;

static void skip_space(Text *t) {
    while (t->at < t->end && (*t->at == ' ' || *t->at == '\t' || *t->at == '\r')) t->at++;
}

/* 1: parsed into *value (a new reference); 0: not plain; -1: an error. */
static int plain_value(Text *t, int depth, PyObject **value);

static int plain_string(Text *t, PyObject **value) {
    const char *start = ++t->at; /* after the opening quote */
    while (t->at < t->end) {
        unsigned char c = (unsigned char)*t->at;
        if (c == '"') {
            *value = PyUnicode_DecodeUTF8(start, t->at - start, NULL);
            t->at++;
            if (*value == NULL) {
                if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return -1;
                PyErr_Clear();
                return 0;
            }
            return 1;
        }
        if (c < 0x20 || c == '\\') return 0;
        t->at++;
    }
    return 0;
}

static int plain_integer(Text *t, PyObject **value) {
    const char *start = t->at;
    int negative = *t->at == '-';
    if (negative) t->at++;
    const char *digits = t->at;
    while (t->at < t->end && *t->at >= '0' && *t->at <= '9') t->at++;
    Py_ssize_t count = t->at - digits;
    if (count == 0 || count > 18 || (count > 1 && *digits == '0')) return 0;
    if (t->at < t->end && (*t->at == '.' || *t->at == 'e' || *t->at == 'E')) return 0;
    long long magnitude = 0;
    for (const char *d = digits; d < t->at; d++) magnitude = magnitude * 10 + (*d - '0');
    (void)start;
    *value = PyLong_FromLongLong(negative ? -magnitude : magnitude);
    return *value == NULL ? -1 : 1;
}

static int plain_literal(Text *t, const char *word, Py_ssize_t length, PyObject *constant,
                         PyObject **value) {
    if (t->end - t->at < length || memcmp(t->at, word, length) != 0) return 0;
    t->at += length;
    Py_INCREF(constant);
    *value = constant;
    return 1;
}

static int plain_array(Text *t, int depth, PyObject **value) {
    PyObject *list = PyList_New(0);
    if (list == NULL) return -1;
    t->at++;
    skip_space(t);
    if (t->at < t->end && *t->at == ']') {
        t->at++;
        *value = list;
        return 1;
    }
    for (;;) {
        PyObject *item;
        int done = plain_value(t, depth + 1, &item);
        if (done <= 0) {
            Py_DECREF(list);
            return done;
        }
        int appended = PyList_Append(list, item);
        Py_DECREF(item);
        if (appended < 0) {
            Py_DECREF(list);
            return -1;
        }
        skip_space(t);
        if (t->at < t->end && *t->at == ',') {
            t->at++;
            continue;
        }
        if (t->at < t->end && *t->at == ']') {
            t->at++;
            *value = list;
            return 1;
        }
        Py_DECREF(list);
        return 0;
    }
}

static int plain_object(Text *t, int depth, PyObject **value) {
    PyObject *dict = PyDict_New();
    if (dict == NULL) return -1;
    t->at++;
    skip_space(t);
    if (t->at < t->end && *t->at == '}') {
        t->at++;
        *value = dict;
        return 1;
    }
    for (;;) {
        PyObject *key, *item;
        skip_space(t);
        if (t->at >= t->end || *t->at != '"') break;
        int done = plain_string(t, &key);
        if (done <= 0) {
            Py_DECREF(dict);
            return done;
        }
        skip_space(t);
        if (t->at >= t->end || *t->at != ':') {
            Py_DECREF(key);
            break;
        }
        t->at++;
        done = plain_value(t, depth + 1, &item);
        if (done <= 0) {
            Py_DECREF(key);
            Py_DECREF(dict);
            return done;
        }
        int set = PyDict_SetItem(dict, key, item);
        Py_DECREF(key);
        Py_DECREF(item);
        if (set < 0) {
            Py_DECREF(dict);
            return -1;
        }
        skip_space(t);
        if (t->at < t->end && *t->at == ',') {
            t->at++;
            continue;
        }
        if (t->at < t->end && *t->at == '}') {
            t->at++;
            *value = dict;
            return 1;
        }
        break;
    }
    Py_DECREF(dict);
    return 0;
}

static int plain_value(Text *t, int depth, PyObject **value) {
    skip_space(t);
    if (t->at >= t->end) return 0;
    switch (*t->at) {
        case '"': return plain_string(t, value);
        case '[': return depth >= config.max_depth ? 0 : plain_array(t, depth, value);
        case '{': return depth >= config.max_depth ? 0 : plain_object(t, depth, value);
        case 't': return plain_literal(t, "true", 4, Py_True, value);
        case 'f': return plain_literal(t, "false", 5, Py_False, value);
        case 'n': return plain_literal(t, "null", 4, Py_None, value);
        default:
            if (*t->at == '-' || (*t->at >= '0' && *t->at <= '9')) return plain_integer(t, value);
            return 0;
    }
}

/* The value of a plain JSON text (see plain_value), a new reference; NULL without an error
 * for any other text. */
static PyObject *plain_json(const char *bytes, Py_ssize_t length) {
    Text t = {bytes, bytes + length};
    PyObject *value;
    int done = plain_value(&t, 0, &value);
    if (done < 0) return NULL;
    if (done == 0) return NULL;
    skip_space(&t);
    if (t.at != t.end) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}


/* The message of ``data`` if it is exactly one whole line the decoder would turn into
 * one message at once (its buffer empty, the only LF at the end, within its size, valid
 * UTF-8, and for jsonl a JSON value alone, not nested deeply): a new reference. NULL
 * without an error set: not that case (the Python path decides); NULL with one: failure. */
static PyObject *decode_whole(PyObject *decoder, PyObject *data) {
    PyTypeObject *type = Py_TYPE(decoder);
    int jsonl;
    if ((PyObject *)type == config.line_decoder) {
        jsonl = 0;
    } else if ((PyObject *)type == config.jsonl_decoder) {
        jsonl = 1;
    } else {
        return NULL;
    }
    if (!PyBytes_CheckExact(data)) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(data);
    const char *bytes = PyBytes_AS_STRING(data);
    if (n == 0 || memchr(bytes, '\n', n) != bytes + n - 1) return NULL;

    if (!all_set(decoder, decoder_at, D_FIELDS)) return NULL;
    PyObject *buf = FIELD(decoder, decoder_at, D_BUF);
    Py_ssize_t buffered =
        PyByteArray_CheckExact(buf) ? PyByteArray_GET_SIZE(buf) : PyObject_Length(buf);
    if (buffered != 0) return NULL; /* with the error of a length that failed */
    PyObject *skipping = FIELD(decoder, decoder_at, D_SKIPPING);
    int skip = skipping == Py_False ? 0 : PyObject_IsTrue(skipping);
    if (skip != 0) return NULL;
    Py_ssize_t limit = PyLong_AsSsize_t(FIELD(decoder, decoder_at, D_MAX));
    if (limit == -1 && PyErr_Occurred()) return NULL;

    Py_ssize_t end = n - 1;
    if (end > 0 && bytes[end - 1] == '\r') end--;
    if (end > limit) return NULL;
    if (jsonl) {
        PyObject *plain = plain_json(bytes, end);
        if (plain != NULL || PyErr_Occurred()) return plain;
    }
    PyObject *text = PyUnicode_DecodeUTF8(bytes, end, NULL);
    if (text == NULL) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) PyErr_Clear();
        return NULL;
    }
    if (!jsonl) return text;

    PyObject *scanned = PyObject_CallFunction(config.scan_once, "On", text, (Py_ssize_t)0);
    if (scanned == NULL) {
        /* Not JSON, a number Python will not convert, nested too deep for the stack: the
         * Python path names the fault. */
        if (!PyErr_ExceptionMatches(PyExc_MemoryError)) PyErr_Clear();
        Py_DECREF(text);
        return NULL;
    }
    PyObject *value = NULL;
    if (PyTuple_Check(scanned) && PyTuple_GET_SIZE(scanned) == 2) {
        Py_ssize_t stop = PyLong_AsSsize_t(PyTuple_GET_ITEM(scanned, 1));
        if (stop == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        } else if (stop == PyUnicode_GET_LENGTH(text)) {
            value = PyTuple_GET_ITEM(scanned, 0);
        }
    }
    if (value != NULL && PyUnicode_GET_LENGTH(text) > 2 * config.max_depth) {
        /* As _too_deep: cleared by its brackets, else the Python path walks it. */
        Py_ssize_t brackets = 0;
        Py_ssize_t length = PyUnicode_GET_LENGTH(text);
        int kind = PyUnicode_KIND(text);
        const void *chars = PyUnicode_DATA(text);
        for (Py_ssize_t i = 0; i < length; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, chars, i);
            if (c == '[' || c == '{') brackets++;
        }
        if (brackets > config.max_depth) value = NULL;
    }
    Py_XINCREF(value);
    Py_DECREF(scanned);
    Py_DECREF(text);
    return value;
}

/* ---- the reader: Channel._on_data's usual case ------------------------------------- */

typedef struct {
    PyObject_HEAD PyObject *channel;
    vectorcallfunc vectorcall;
} Reader;

static PyObject *monotonic_now(double *now) {
    PyObject *stamp = PyObject_CallNoArgs(config.monotonic);
    if (stamp == NULL) return NULL;
    *now = PyFloat_AsDouble(stamp);
    if (*now == -1.0 && PyErr_Occurred()) {
        Py_DECREF(stamp);
        return NULL;
    }
    return stamp;
}

/* ``future.done()``: 1, 0, or -1 with an error. */
static int is_done(PyObject *future) {
    PyObject *finished = PyObject_CallMethodNoArgs(future, s_done);
    if (finished == NULL) return -1;
    int done = PyObject_IsTrue(finished);
    Py_DECREF(finished);
    return done;
}

/* The usual reply: one whole line, in time, for the request waiting on the wall clock,
 * with no late answer owed. 1: delivered; 0: not that case, nothing changed; -1: an error. */
static int deliver_usual(PyObject *channel, PyObject *data) {
    if (!is_channel(channel)) return 0;
    if (FIELD(channel, channel_at, C_CLOSED) != Py_None) return 0;
    PyObject *waiter = FIELD(channel, channel_at, C_WAITER);
    if (waiter == Py_None) return 0;
    Py_INCREF(waiter);
    int handled = -1;
    PyObject *stamp = NULL, *message = NULL, *elapsed = NULL;
    int done = is_done(waiter);
    if (done != 0) {
        handled = done < 0 ? -1 : 0;
        goto end;
    }
    handled = 0;
    if (FIELD(channel, channel_at, C_CPU) != Py_None) goto end;
    Py_ssize_t owing = PyObject_Length(FIELD(channel, channel_at, C_OWED));
    if (owing != 0) {
        handled = owing < 0 ? -1 : 0;
        goto end;
    }
    handled = -1;
    double arrived;
    stamp = monotonic_now(&arrived);
    if (stamp == NULL) goto end;
    double deadline = field_float(channel, C_DEADLINE);
    if (deadline == -1.0 && PyErr_Occurred()) goto end;
    handled = 0;
    if (arrived > deadline || PyBytes_GET_SIZE(data) > config.max_logged) goto end;
    PyObject *decoder = FIELD(channel, channel_at, C_DECODER);
    Py_INCREF(decoder);
    message = decode_whole(decoder, data);
    Py_DECREF(decoder);
    if (message == NULL) {
        handled = PyErr_Occurred() ? -1 : 0;
        goto end;
    }
    handled = -1;
    double sent_at = field_float(channel, C_SENT_AT);
    if (sent_at == -1.0 && PyErr_Occurred()) goto end;
    elapsed = PyFloat_FromDouble(arrived - sent_at);
    if (elapsed == NULL) goto end;
    PyObject *log = FIELD(channel, channel_at, C_LOG);
    if (log != Py_None) {
        Py_INCREF(log);
        PyObject *entry =
            log_entry(stamp, s_recv, FIELD(channel, channel_at, C_SEAT), data, elapsed);
        int recorded = entry == NULL ? -1 : record(log, entry);
        Py_XDECREF(entry);
        Py_DECREF(log);
        if (recorded < 0) goto end;
    }
    field_set(channel, channel_at, C_WAITER, Py_None);
    field_set(channel, channel_at, C_ANSWERED, Py_True);
    PyObject *result = PyTuple_Pack(3, message, elapsed, Py_None);
    if (result == NULL) goto end;
    PyObject *set = PyObject_CallMethodOneArg(waiter, s_set_result, result);
    Py_DECREF(result);
    if (set == NULL) goto end;
    Py_DECREF(set);
    handled = 1;
end:
    Py_XDECREF(stamp);
    Py_XDECREF(message);
    Py_XDECREF(elapsed);
    Py_DECREF(waiter);
    return handled;
}

static PyObject *Reader_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames) {
    Reader *self = (Reader *)callable;
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "Reader(data)");
        return NULL;
    }
    PyObject *data = args[0];
    if (codecs_ready && channels_ready && PyBytes_CheckExact(data)) {
        int handled = deliver_usual(self->channel, data);
        if (handled < 0) return NULL;
        if (handled) Py_RETURN_NONE;
    }
    return PyObject_CallMethodOneArg(self->channel, s_on_data, data);
}

static int Reader_init(Reader *self, PyObject *args, PyObject *kwargs) {
    PyObject *channel;
    if (!PyArg_ParseTuple(args, "O:Reader", &channel)) return -1;
    Py_INCREF(channel);
    Py_XSETREF(self->channel, channel);
    self->vectorcall = Reader_vectorcall;
    return 0;
}

static int Reader_traverse(Reader *self, visitproc visit, void *arg) {
    Py_VISIT(self->channel);
    return 0;
}

static int Reader_clear(Reader *self) {
    Py_CLEAR(self->channel);
    return 0;
}

static void Reader_dealloc(Reader *self) {
    PyObject_GC_UnTrack(self);
    Reader_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arena_kernel.codecs._fast.Reader",
    .tp_doc = "Reader(channel)(data): the channel's on_data, the usual reply compiled.",
    .tp_basicsize = sizeof(Reader),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Reader, vectorcall),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Reader_init,
    .tp_call = PyVectorcall_Call,
    .tp_traverse = (traverseproc)Reader_traverse,
    .tp_clear = (inquiry)Reader_clear,
    .tp_dealloc = (destructor)Reader_dealloc,
};

/* ---- the connection: FdConnection's read and its usual write ------------------------ */

/* Whether ``obj`` is an FdConnection whose fields are all set. */
static int is_fd_connection(PyObject *obj) {
    return connection_type != NULL && PyObject_TypeCheck(obj, connection_type) &&
           all_set(obj, connection_at, F_FIELDS);
}

/* A field's int (a file descriptor): -1 with an error set otherwise. */
static int field_fd(PyObject *obj, int i) {
    long fd = PyLong_AsLong(FIELD(obj, connection_at, i));
    if (fd == -1 && PyErr_Occurred()) return -1;
    if (fd < 0 || fd > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "not a file descriptor");
        return -1;
    }
    return (int)fd;
}

static int call_write(PyObject *connection, PyObject *data) {
    PyObject *written = PyObject_CallMethodOneArg(connection, s_write, data);
    if (written == NULL) return -1;
    Py_DECREF(written);
    return 0;
}

/* ``connection.write(data)``: 0, or -1 with an error. On an FdConnection with nothing
 * waiting to be written, the write it makes; what the system takes only in part, or not at
 * all, goes to its ``write`` (which writes again, or buffers, or finds the bot gone). */
static int write_to(PyObject *connection, PyObject *data) {
    if (!is_fd_connection(connection) || !PyBytes_CheckExact(data) ||
        PyBytes_GET_SIZE(data) == 0 ||
        _PyType_Lookup(Py_TYPE(connection), s_write) != connection_write ||
        FIELD(connection, connection_at, F_CLOSING) != Py_False ||
        FIELD(connection, connection_at, F_WRITABLE) != Py_True) {
        return call_write(connection, data);
    }
    PyObject *out = FIELD(connection, connection_at, F_OUT);
    if (!PyByteArray_CheckExact(out) || PyByteArray_GET_SIZE(out) != 0) {
        return call_write(connection, data);
    }
    int wfd = field_fd(connection, F_WFD);
    if (wfd < 0) return -1;
    Py_ssize_t size = PyBytes_GET_SIZE(data);
    Py_ssize_t sent = write(wfd, PyBytes_AS_STRING(data), (size_t)size);
    if (sent == size) return 0;
    if (sent <= 0) return call_write(connection, data);
    PyObject *rest = PyBytes_FromStringAndSize(PyBytes_AS_STRING(data) + sent, size - sent);
    if (rest == NULL) return -1;
    int status = call_write(connection, rest);
    Py_DECREF(rest);
    return status;
}

/* FdReader(connection)(): the connection's ``_read_once``, the read made here; a read that
 * brings no data goes to its ``_not_read`` (None at the end of the output, else the
 * OSError os.read raises). */
typedef struct {
    PyObject_HEAD PyObject *connection;
    vectorcallfunc vectorcall;
} FdReader;

static PyObject *FdReader_vectorcall(PyObject *callable, PyObject *const *args,
                                     size_t nargsf, PyObject *kwnames) {
    PyObject *connection = ((FdReader *)callable)->connection;
    if (PyVectorcall_NARGS(nargsf) != 0 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "FdReader()");
        return NULL;
    }
    if (read_buffer == NULL || !is_fd_connection(connection) ||
        FIELD(connection, connection_at, F_ON_DATA) == Py_None) {
        return PyObject_CallMethodNoArgs(connection, s_read_once);
    }
    int rfd = field_fd(connection, F_RFD);
    if (rfd < 0) return NULL;
    Py_ssize_t got;
    for (;;) {
        got = read(rfd, read_buffer, (size_t)read_size);
        if (got >= 0 || errno != EINTR) break;
        if (PyErr_CheckSignals() < 0) return NULL; /* as os.read, retried after EINTR */
    }
    if (got == 0) return PyObject_CallMethodOneArg(connection, s_not_read, Py_None);
    if (got < 0) {
        PyObject *type, *error, *traceback;
        PyErr_SetFromErrno(PyExc_OSError);
        PyErr_Fetch(&type, &error, &traceback);
        PyErr_NormalizeException(&type, &error, &traceback);
        Py_XDECREF(type);
        Py_XDECREF(traceback);
        if (error == NULL) return NULL;
        PyObject *judged = PyObject_CallMethodOneArg(connection, s_not_read, error);
        Py_DECREF(error);
        return judged;
    }
    PyObject *data = PyBytes_FromStringAndSize(read_buffer, got);
    if (data == NULL) return NULL;
    PyObject *on_data = FIELD(connection, connection_at, F_ON_DATA);
    Py_INCREF(on_data);
    PyObject *done = PyObject_CallOneArg(on_data, data);
    Py_DECREF(on_data);
    Py_DECREF(data);
    return done;
}

static int FdReader_init(FdReader *self, PyObject *args, PyObject *kwargs) {
    PyObject *connection;
    if (!PyArg_ParseTuple(args, "O:FdReader", &connection)) return -1;
    Py_INCREF(connection);
    Py_XSETREF(self->connection, connection);
    self->vectorcall = FdReader_vectorcall;
    return 0;
}

static int FdReader_traverse(FdReader *self, visitproc visit, void *arg) {
    Py_VISIT(self->connection);
    return 0;
}

static int FdReader_clear(FdReader *self) {
    Py_CLEAR(self->connection);
    return 0;
}

static void FdReader_dealloc(FdReader *self) {
    PyObject_GC_UnTrack(self);
    FdReader_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject FdReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arena_kernel.codecs._fast.FdReader",
    .tp_doc = "FdReader(connection)(): the connection's _read_once, the read compiled.",
    .tp_basicsize = sizeof(FdReader),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(FdReader, vectorcall),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)FdReader_init,
    .tp_call = PyVectorcall_Call,
    .tp_traverse = (traverseproc)FdReader_traverse,
    .tp_clear = (inquiry)FdReader_clear,
    .tp_dealloc = (destructor)FdReader_dealloc,
};

/* ---- encoding --------------------------------------------------------------------- */

/* A growing byte buffer. */
typedef struct {
    char *data;
    Py_ssize_t size;
    Py_ssize_t used;
} Out;

static int out_reserve(Out *out, Py_ssize_t more) {
    if (out->used + more <= out->size) return 0;
    Py_ssize_t size = out->size ? out->size : 256;
    while (size < out->used + more) size *= 2;
    char *data = PyMem_Realloc(out->data, size);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    out->data = data;
    out->size = size;
    return 0;
}

static int out_write(Out *out, const char *text, Py_ssize_t length) {
    if (out_reserve(out, length) < 0) return -1;
    memcpy(out->data + out->used, text, length);
    out->used += length;
    return 0;
}

static const char HEX[] = "0123456789abcdef";

static int out_escaped(Out *out, Py_UCS4 c) {
    char text[12];
    Py_ssize_t n = 0;
    switch (c) {
        case '\\': text[n++] = '\\'; text[n++] = '\\'; break;
        case '"': text[n++] = '\\'; text[n++] = '"'; break;
        case '\b': text[n++] = '\\'; text[n++] = 'b'; break;
        case '\f': text[n++] = '\\'; text[n++] = 'f'; break;
        case '\n': text[n++] = '\\'; text[n++] = 'n'; break;
        case '\r': text[n++] = '\\'; text[n++] = 'r'; break;
        case '\t': text[n++] = '\\'; text[n++] = 't'; break;
        default: {
            Py_UCS4 units[2];
            int count = 1;
            if (c >= 0x10000) {
                Py_UCS4 v = c - 0x10000;
                units[0] = 0xd800 | ((v >> 10) & 0x3ff);
                units[1] = 0xdc00 | (v & 0x3ff);
                count = 2;
            } else {
                units[0] = c;
            }
            for (int i = 0; i < count; i++) {
                text[n++] = '\\';
                text[n++] = 'u';
                text[n++] = HEX[(units[i] >> 12) & 0xf];
                text[n++] = HEX[(units[i] >> 8) & 0xf];
                text[n++] = HEX[(units[i] >> 4) & 0xf];
                text[n++] = HEX[units[i] & 0xf];
            }
        }
    }
    return out_write(out, text, n);
}

/* A str as json's ensure_ascii writes it. */
static int out_string(Out *out, PyObject *text) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *chars = PyUnicode_DATA(text);
    if (out_reserve(out, length + 2) < 0) return -1;
    out->data[out->used++] = '"';
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, chars, i);
        if (c >= ' ' && c <= '~' && c != '\\' && c != '"') {
            if (out_reserve(out, 1) < 0) return -1;
            out->data[out->used++] = (char)c;
        } else if (out_escaped(out, c) < 0) {
            return -1;
        }
    }
    return out_write(out, "\"", 1);
}

#define PLAIN_DEPTH 64

/* ``value`` as compact JSON: 1 written, 0 not a value written here (the generic encoder
 * takes the whole message), -1 an error. */
static int out_value(Out *out, PyObject *value, int depth) {
    if (value == Py_None) return out_write(out, "null", 4) < 0 ? -1 : 1;
    if (value == Py_True) return out_write(out, "true", 4) < 0 ? -1 : 1;
    if (value == Py_False) return out_write(out, "false", 5) < 0 ? -1 : 1;
    PyTypeObject *type = Py_TYPE(value);
    if (type == &PyLong_Type) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow) return 0;
        if (v == -1 && PyErr_Occurred()) return -1;
        char text[24];
        char *end = text + sizeof text, *at = end;
        unsigned long long magnitude = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        do {
            *--at = (char)('0' + magnitude % 10);
            magnitude /= 10;
        } while (magnitude);
        if (v < 0) *--at = '-';
        return out_write(out, at, end - at) < 0 ? -1 : 1;
    }
    if (type == &PyUnicode_Type) return out_string(out, value) < 0 ? -1 : 1;
    if (depth >= PLAIN_DEPTH) return 0;
    if (type == &PyList_Type || type == &PyTuple_Type) {
        if (out_write(out, "[", 1) < 0) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(value); i++) {
            if (i && out_write(out, ",", 1) < 0) return -1;
            /* a list may change size under a __repr__ of nothing here: none is called */
            int done = out_value(out, PySequence_Fast_GET_ITEM(value, i), depth + 1);
            if (done <= 0) return done;
        }
        return out_write(out, "]", 1) < 0 ? -1 : 1;
    }
    if (type == &PyDict_Type) {
        if (out_write(out, "{", 1) < 0) return -1;
        Py_ssize_t position = 0;
        PyObject *key, *item;
        int first = 1;
        while (PyDict_Next(value, &position, &key, &item)) {
            if (!PyUnicode_CheckExact(key)) return 0;
            if (!first && out_write(out, ",", 1) < 0) return -1;
            first = 0;
            if (out_string(out, key) < 0 || out_write(out, ":", 1) < 0) return -1;
            int done = out_value(out, item, depth + 1);
            if (done <= 0) return done;
        }
        return out_write(out, "}", 1) < 0 ? -1 : 1;
    }
    return 0;
}

/* The jsonl line of a message of None, bools, ints of 64 bits, strs, lists, tuples and
 * dicts with str keys, nested less than PLAIN_DEPTH deep: new reference; NULL without an
 * error for any other message (a float, a big int, another type: the generic encoder's). */
static PyObject *encode_plain_json(PyObject *message) {
    Out out = {NULL, 0, 0};
    int done = out_value(&out, message, 0);
    PyObject *result = NULL;
    if (done > 0 && out_write(&out, "\n", 1) == 0) {
        result = PyBytes_FromStringAndSize(out.data, out.used);
    }
    PyMem_Free(out.data);
    return result;
}


/* The bytes of ``message`` as the channel's codec writes them: new reference, or NULL
 * with an error (the codec's own, raised by its Python encode where it is not the usual
 * message of a line or jsonl codec). */
static PyObject *encode(PyObject *codec, PyObject *message) {
    PyObject *type = (PyObject *)Py_TYPE(codec);
    if (type == config.line_codec && PyUnicode_CheckExact(message)) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(message);
        int kind = PyUnicode_KIND(message);
        const void *chars = PyUnicode_DATA(message);
        int plain = 1;
        for (Py_ssize_t i = 0; i < length; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, chars, i);
            if (c == '\n' || c == '\r') {
                plain = 0;
                break;
            }
        }
        if (plain) {
            Py_ssize_t size;
            const char *utf8 = PyUnicode_AsUTF8AndSize(message, &size);
            if (utf8 == NULL) {
                PyErr_Clear(); /* lone surrogates: encode raises its own error */
            } else {
                PyObject *out = PyBytes_FromStringAndSize(NULL, size + 1);
                if (out == NULL) return NULL;
                memcpy(PyBytes_AS_STRING(out), utf8, size);
                PyBytes_AS_STRING(out)[size] = '\n';
                return out;
            }
        }
    } else if (type == config.jsonl_codec) {
        PyObject *line = encode_plain_json(message);
        if (line != NULL || PyErr_Occurred()) return line;
    }
    if (type == config.jsonl_codec && config.encode_json != Py_None) {
        PyObject *chunks = PyObject_CallFunction(config.encode_json, "Oi", message, 0);
        if (chunks != NULL) {
            PyObject *text = PyUnicode_Join(s_empty, chunks);
            Py_DECREF(chunks);
            if (text == NULL) return NULL;
            /* ensure_ascii: the text is ASCII */
            Py_ssize_t size = PyUnicode_GET_LENGTH(text);
            if (PyUnicode_IS_ASCII(text)) {
                PyObject *out = PyBytes_FromStringAndSize(NULL, size + 1);
                if (out != NULL) {
                    memcpy(PyBytes_AS_STRING(out), PyUnicode_DATA(text), size);
                    PyBytes_AS_STRING(out)[size] = '\n';
                }
                Py_DECREF(text);
                return out;
            }
            Py_DECREF(text);
        } else if (PyErr_ExceptionMatches(PyExc_MemoryError)) {
            return NULL;
        } else {
            PyErr_Clear(); /* the codec's encode raises (or tells a cycle) itself */
        }
    }
    return PyObject_CallMethodOneArg(codec, s_encode, message);
}

/* ---- the request: Channel.ask ------------------------------------------------------ */

/* ``loop.create_future()``: on a loop whose create_future is asyncio's own, the future it
 * makes (``asyncio.Future(loop=loop)``), made here. */
static PyObject *create_future(PyObject *loop) {
    if (config.create_future != NULL &&
        _PyType_Lookup(Py_TYPE(loop), s_create_future) == config.create_future) {
        PyObject *args[2] = {NULL, loop};
        return PyObject_Vectorcall(config.future_type, args + 1,
                                   0 | PY_VECTORCALL_ARGUMENTS_OFFSET, s_loop_kwnames);
    }
    return PyObject_CallMethodNoArgs(loop, s_create_future);
}

static PyObject *fast_ask(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "ask(channel, message, delay)");
        return NULL;
    }
    PyObject *channel = args[0], *message = args[1], *delay_obj = args[2];
    double delay = PyFloat_AsDouble(delay_obj);
    if (delay == -1.0 && PyErr_Occurred()) return NULL;
    if (!codecs_ready || !channels_ready || !is_channel(channel) ||
        FIELD(channel, channel_at, C_LOOP) == Py_None) {
        return PyObject_CallMethodObjArgs(channel, s_request, message, delay_obj, NULL);
    }
    PyObject *loop = FIELD(channel, channel_at, C_LOOP);
    Py_INCREF(loop);
    PyObject *waiter = create_future(loop);
    Py_DECREF(loop);
    if (waiter == NULL) return NULL;
    PyObject *data = NULL, *stamp = NULL, *check = NULL;
    field_set(channel, channel_at, C_WAITER, waiter);
    PyObject *codec = FIELD(channel, channel_at, C_CODEC);
    Py_INCREF(codec);
    data = encode(codec, message);
    Py_DECREF(codec);
    if (data == NULL) goto fail;
    if (!all_set(channel, channel_at, C_FIELDS)) goto deleted;
    field_set(channel, channel_at, C_CPU, Py_None);
    double sent_at;
    stamp = monotonic_now(&sent_at);
    if (stamp == NULL) goto fail;
    field_set(channel, channel_at, C_SENT_AT, stamp);
    field_set(channel, channel_at, C_PENDING_BYTES, s_zero_int);
    double check_at = sent_at + delay;
    check = PyFloat_FromDouble(check_at);
    if (check == NULL) goto fail;
    field_set(channel, channel_at, C_CHECK_AT, check);
    field_set(channel, channel_at, C_DEADLINE, check);

    PyObject *log = FIELD(channel, channel_at, C_LOG);
    if (log != Py_None) {
        Py_INCREF(log);
        PyObject *text;
        if (PyBytes_GET_SIZE(data) <= config.max_logged) {
            Py_INCREF(data);
            text = data;
        } else {
            text = PyObject_CallOneArg(config.wire_text, data);
        }
        PyObject *entry =
            text == NULL ? NULL
                         : log_entry(stamp, s_send, FIELD(channel, channel_at, C_SEAT), text,
                                     Py_None);
        Py_XDECREF(text);
        int recorded = entry == NULL ? -1 : record(log, entry);
        Py_XDECREF(entry);
        Py_DECREF(log);
        if (recorded < 0) goto fail;
    }

    if (!all_set(channel, channel_at, C_FIELDS)) goto deleted;
    if (FIELD(channel, channel_at, C_CLOSED) == Py_None) {
        PyObject *connection = FIELD(channel, channel_at, C_CONNECTION);
        if (connection != Py_None) {
            Py_INCREF(connection);
            int written = write_to(connection, data);
            Py_DECREF(connection);
            if (written < 0) goto fail;
        }
    }
    if (!all_set(channel, channel_at, C_FIELDS)) goto deleted;
    /* The write may have found the bot gone: the request ends with its fault. */
    PyObject *closed = FIELD(channel, channel_at, C_CLOSED);
    if (closed != Py_None) {
        int done = is_done(waiter);
        if (done < 0) goto fail;
        if (!done) {
            Py_INCREF(closed);
            PyObject *ended =
                PyObject_CallMethodObjArgs(channel, s_end, waiter, closed, s_zero_float, NULL);
            Py_DECREF(closed);
            if (ended == NULL) goto fail;
            Py_DECREF(ended);
        }
    }

    /* Fields read anew: the calls above may run Python code. */
    if (!all_set(channel, channel_at, C_FIELDS)) goto deleted;
    PyObject *timer = FIELD(channel, channel_at, C_TIMER);
    int move = timer == NULL || timer == Py_None;
    if (!move) {
        double timer_at = field_float(channel, C_TIMER_AT);
        if (timer_at == -1.0 && PyErr_Occurred()) goto fail;
        if (timer_at > check_at) {
            move = 1;
            Py_INCREF(timer);
            PyObject *cancelled = PyObject_CallMethodNoArgs(timer, s_cancel);
            Py_DECREF(timer);
            if (cancelled == NULL) goto fail;
            Py_DECREF(cancelled);
        }
    }
    if (move) {
        PyObject *set = PyObject_CallMethodOneArg(channel, s_set_timer, check);
        if (set == NULL) goto fail;
        Py_DECREF(set);
    }
    Py_DECREF(data);
    Py_DECREF(stamp);
    Py_DECREF(check);
    return waiter;
deleted:
    PyErr_SetString(PyExc_AttributeError, "a slot of the channel was deleted");
fail:
    Py_XDECREF(data);
    Py_XDECREF(stamp);
    Py_XDECREF(check);
    Py_DECREF(waiter);
    return NULL;
}

/* ---- the table's usual step: Table.ask ------------------------------------------- */

/* drain(channel): ``channel.drain()``, without the call while its inbox is empty. */
static PyObject *fast_drain(PyObject *module, PyObject *channel) {
    if (channels_ready && is_channel(channel)) {
        Py_ssize_t waiting = PyObject_Length(FIELD(channel, channel_at, C_INBOX));
        if (waiting < 0) return NULL;
        if (waiting == 0) return PyList_New(0);
    }
    return PyObject_CallMethodNoArgs(channel, s_drain);
}

/* reply(result, limit, unsolicited): the Reply of a request that ended with a message,
 * ``Reply(result[0], None, result[1], limit, unsolicited, result[2])``, its slots set here
 * as its __init__ sets them. */
static PyObject *fast_reply(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "reply(result, limit, unsolicited)");
        return NULL;
    }
    PyObject *result = args[0];
    if (reply_type == NULL || !PyTuple_CheckExact(result) || PyTuple_GET_SIZE(result) != 3) {
        if (reply_type == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "the reply type is not configured");
            return NULL;
        }
        PyObject *items = PySequence_Tuple(result);
        if (items == NULL) return NULL;
        if (PyTuple_GET_SIZE(items) != 3) {
            Py_DECREF(items);
            PyErr_SetString(PyExc_ValueError, "a request's result has three items");
            return NULL;
        }
        PyObject *reply = PyObject_CallFunctionObjArgs(
            (PyObject *)reply_type, PyTuple_GET_ITEM(items, 0), Py_None,
            PyTuple_GET_ITEM(items, 1), args[1], args[2], PyTuple_GET_ITEM(items, 2), NULL);
        Py_DECREF(items);
        return reply;
    }
    PyObject *reply = reply_type->tp_alloc(reply_type, 0);
    if (reply == NULL) return NULL;
    PyObject *values[R_FIELDS] = {PyTuple_GET_ITEM(result, 0), Py_None,
                                  PyTuple_GET_ITEM(result, 1), args[1],
                                  args[2],                      PyTuple_GET_ITEM(result, 2)};
    for (int i = 0; i < R_FIELDS; i++) field_set(reply, reply_at, i, values[i]);
    return reply;
}

static PyObject *configure_replies(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"reply", NULL};
    PyObject *type;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$O!:configure_replies", names,
                                     &PyType_Type, &type))
        return NULL;
    Py_ssize_t found[R_FIELDS];
    if (slot_offsets(type, reply_names, found, R_FIELDS) < 0) return NULL;
    memcpy(reply_at, found, sizeof found);
    PyObject **targets[] = {(PyObject **)&reply_type};
    PyObject *values[] = {type};
    replace_objects(targets, values, 1, reply_type != NULL);
    Py_RETURN_NONE;
}

/* ---- a game's events: EventLog.events ------------------------------------------- */

enum { E_T, E_KIND, E_SEAT, E_TEXT, E_ELAPSED, E_CPU, E_FIELDS };
static const char *const event_names[E_FIELDS] = {"t",    "kind",    "seat",
                                                  "text", "elapsed", "cpu"};
static Py_ssize_t event_at[E_FIELDS];
static PyTypeObject *event_type = NULL;

/* The text of an entry's bytes: ``raw.decode("utf-8", "replace").rstrip("\n")``. */
static PyObject *entry_text(PyObject *raw) {
    PyObject *text =
        PyUnicode_DecodeUTF8(PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw), "replace");
    if (text == NULL) return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), end = length;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    while (end > 0 && PyUnicode_READ(kind, data, end - 1) == '\n') end--;
    if (end == length) return text;
    PyObject *cut = PyUnicode_Substring(text, 0, end);
    Py_DECREF(text);
    return cut;
}

/* ``events(entries, t0, max_logged)``: the Event of each entry, or None when one is not
 * the usual (a 6-tuple stamped with a float, its text a str or at most ``max_logged``
 * bytes): the Python makes them all then. */
static PyObject *fast_events(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "events(entries, t0, max_logged)");
        return NULL;
    }
    PyObject *entries = args[0];
    double t0 = PyFloat_AsDouble(args[1]);
    if (t0 == -1.0 && PyErr_Occurred()) return NULL;
    Py_ssize_t max_logged = PyLong_AsSsize_t(args[2]);
    if (max_logged == -1 && PyErr_Occurred()) return NULL;
    if (event_type == NULL || !PyList_CheckExact(entries)) Py_RETURN_NONE;
    Py_ssize_t count = PyList_GET_SIZE(entries);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *entry = PyList_GET_ITEM(entries, i);
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 6 ||
            !PyFloat_CheckExact(PyTuple_GET_ITEM(entry, 0)))
            Py_RETURN_NONE;
        PyObject *text = PyTuple_GET_ITEM(entry, 3);
        if (!(PyUnicode_CheckExact(text) ||
              (PyBytes_CheckExact(text) && PyBytes_GET_SIZE(text) <= max_logged)))
            Py_RETURN_NONE;
    }
    PyObject *made = PyList_New(count);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *entry = PyList_GET_ITEM(entries, i);
        PyObject *t = PyFloat_FromDouble(PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(entry, 0)) - t0);
        PyObject *raw = PyTuple_GET_ITEM(entry, 3);
        PyObject *text = PyBytes_CheckExact(raw) ? entry_text(raw) : Py_NewRef(raw);
        PyObject *event = t == NULL || text == NULL ? NULL : event_type->tp_alloc(event_type, 0);
        if (event != NULL) {
            PyObject *values[E_FIELDS] = {t,    PyTuple_GET_ITEM(entry, 1),
                                          PyTuple_GET_ITEM(entry, 2), text,
                                          PyTuple_GET_ITEM(entry, 4), PyTuple_GET_ITEM(entry, 5)};
            for (int f = 0; f < E_FIELDS; f++) field_set(event, event_at, f, values[f]);
        }
        Py_XDECREF(t);
        Py_XDECREF(text);
        if (event == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        PyList_SET_ITEM(made, i, event);
    }
    return made;
}

/* ---- a stored log's columns: arena_kernel.store.logs.columns ----------------------- */

#define STEPS_LIMIT 4611686018427387904.0 /* 2**62: a step and a difference of two fit a long long */

/* The exponent e that makes ``x`` a whole number of 2**-e steps (its ratio's denominator
 * 2**e), as ``(x).as_integer_ratio()[1].bit_length() - 1``; x is finite. */
static int step_exponent(double x) {
    if (x == 0.0) return 0;
    int e;
    double m = frexp(fabs(x), &e);
    uint64_t whole = (uint64_t)ldexp(m, 53);
    int exponent = 53 - e - __builtin_ctzll(whole);
    return exponent > 0 ? exponent : 0;
}

/* The exponent of the field ``f`` of every event (None aside), or -1 for a value that is
 * neither None nor a finite float; ``*known`` says whether any was not None. */
static int field_exponent(PyObject *events, Py_ssize_t count, int f, int *known) {
    int largest = 0;
    *known = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = FIELD(PyList_GET_ITEM(events, i), event_at, f);
        if (v == Py_None) continue;
        if (!PyFloat_CheckExact(v) || !isfinite(PyFloat_AS_DOUBLE(v))) return -1;
        *known = 1;
        int e = step_exponent(PyFloat_AS_DOUBLE(v));
        if (e > largest) largest = e;
    }
    return largest;
}

/* A whole number of steps as an int (exact: ``scaled`` is integral). */
static PyObject *whole(double scaled) {
    if (fabs(scaled) < STEPS_LIMIT) return PyLong_FromLongLong((long long)scaled);
    return PyLong_FromDouble(scaled);
}

/* The field ``f`` of every event in whole steps of 2**-``exponent`` (None kept), each the
 * difference from the previous one's if ``differences``; NULL with no error set when a
 * step is beyond a double's range (the Python counts those exactly). */
static PyObject *field_steps(PyObject *events, Py_ssize_t count, int f, int exponent,
                             int differences) {
    if (exponent > 1023) return NULL;
    double scale = ldexp(1.0, exponent), before = 0.0;
    PyObject *steps = PyList_New(count);
    if (steps == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = FIELD(PyList_GET_ITEM(events, i), event_at, f);
        PyObject *step;
        if (v == Py_None) {
            step = Py_NewRef(Py_None);
        } else {
            double now = PyFloat_AS_DOUBLE(v) * scale;
            if (!isfinite(now)) {
                Py_DECREF(steps);
                return NULL;
            }
            if (!differences) {
                step = whole(now);
            } else if (fabs(now) < STEPS_LIMIT && fabs(before) < STEPS_LIMIT) {
                step = PyLong_FromLongLong((long long)now - (long long)before);
            } else {
                PyObject *a = whole(now), *b = whole(before);
                step = a == NULL || b == NULL ? NULL : PyNumber_Subtract(a, b);
                Py_XDECREF(a);
                Py_XDECREF(b);
            }
            before = now;
        }
        if (step == NULL) {
            Py_DECREF(steps);
            return NULL;
        }
        PyList_SET_ITEM(steps, i, step);
    }
    return steps;
}

/* ``log_columns(events)``: what ``columns`` makes of a list of Events, or None when one
 * is not the usual (an Event whose times are finite floats or None, none subnormal): the
 * Python makes them then. */
static PyObject *fast_log_columns(PyObject *module, PyObject *events) {
    if (event_type == NULL || !PyList_CheckExact(events)) Py_RETURN_NONE;
    Py_ssize_t count = PyList_GET_SIZE(events);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *event = PyList_GET_ITEM(events, i);
        if (!Py_IS_TYPE(event, event_type) || !all_set(event, event_at, E_FIELDS) ||
            FIELD(event, event_at, E_T) == Py_None)
            Py_RETURN_NONE;
    }
    int known, cpu_known;
    int t_step = field_exponent(events, count, E_T, &known);
    int elapsed_step = field_exponent(events, count, E_ELAPSED, &known);
    int cpu_step = field_exponent(events, count, E_CPU, &cpu_known);
    if (t_step < 0 || elapsed_step < 0 || cpu_step < 0) Py_RETURN_NONE;
    PyObject *t = field_steps(events, count, E_T, t_step, 1);
    PyObject *elapsed = t == NULL ? NULL : field_steps(events, count, E_ELAPSED, elapsed_step, 0);
    PyObject *cpu = elapsed == NULL || !cpu_known
                        ? NULL
                        : field_steps(events, count, E_CPU, cpu_step, 0);
    if (t == NULL || elapsed == NULL || (cpu_known && cpu == NULL)) {
        Py_XDECREF(t);
        Py_XDECREF(elapsed);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    /* In the order the Python's dict has its keys: the JSON of a log is made from it. */
    const char *keys[9] = {"t", "kind", "seat", "text", "elapsed", "t_step", "elapsed_step",
                           "cpu", "cpu_step"};
    PyObject *values[9] = {t, NULL, NULL, NULL, elapsed, NULL, NULL, cpu, NULL};
    for (int f = 0; f < 3; f++) values[1 + f] = PyList_New(count);
    values[5] = PyLong_FromLong(t_step);
    values[6] = PyLong_FromLong(elapsed_step);
    if (cpu_known) values[8] = PyLong_FromLong(cpu_step);
    int used = cpu_known ? 9 : 7;
    PyObject *log = PyDict_New();
    int failed = log == NULL;
    for (int k = 0; k < used; k++) failed = failed || values[k] == NULL;
    for (Py_ssize_t i = 0; !failed && i < count; i++) {
        PyObject *event = PyList_GET_ITEM(events, i);
        for (int f = 0; f < 3; f++)
            PyList_SET_ITEM(values[1 + f], i, Py_NewRef(FIELD(event, event_at, E_KIND + f)));
    }
    /* The cpu column comes before the steps in the Python's dict. */
    const int order[9] = {0, 1, 2, 3, 4, 7, 5, 6, 8};
    for (int k = 0; !failed && k < 9; k++) {
        int at = order[k];
        if (at < used && PyDict_SetItemString(log, keys[at], values[at]) < 0) failed = 1;
    }
    for (int k = 0; k < 9; k++) Py_XDECREF(values[k]);
    if (failed) {
        Py_XDECREF(log);
        return NULL;
    }
    return log;
}

static PyObject *configure_events(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"event", NULL};
    PyObject *type;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$O!:configure_events", names,
                                     &PyType_Type, &type))
        return NULL;
    Py_ssize_t found[E_FIELDS];
    if (slot_offsets(type, event_names, found, E_FIELDS) < 0) return NULL;
    memcpy(event_at, found, sizeof found);
    PyObject **targets[] = {(PyObject **)&event_type};
    PyObject *values[] = {type};
    replace_objects(targets, values, 1, event_type != NULL);
    Py_RETURN_NONE;
}

/* ---- configuration ---------------------------------------------------------------- */


static PyObject *configure_codecs(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"line_decoder", "jsonl_decoder", "line_codec", "jsonl_codec",
                            "scan_once",    "encode_json",   "max_depth",  NULL};
    PyObject *values[6];
    Py_ssize_t max_depth;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOOOOOn:configure_codecs", names,
                                     &values[0], &values[1], &values[2], &values[3],
                                     &values[4], &values[5], &max_depth))
        return NULL;
    if (!PyType_Check(values[0]) || !PyType_Check(values[1]) ||
        !PyType_IsSubtype((PyTypeObject *)values[1], (PyTypeObject *)values[0])) {
        PyErr_SetString(PyExc_TypeError, "the jsonl decoder is a line decoder");
        return NULL;
    }
    if (slot_offsets(values[0], decoder_names, decoder_at, D_FIELDS) < 0) return NULL;
    PyObject **targets[] = {&config.line_decoder, &config.jsonl_decoder, &config.line_codec,
                            &config.jsonl_codec,  &config.scan_once,     &config.encode_json};
    replace_objects(targets, values, 6, codecs_ready);
    config.max_depth = max_depth;
    codecs_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *configure_channels(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"channel",       "event_log",   "wire_text", "monotonic",
                            "create_future", "future_type", "max_logged", NULL};
    PyObject *values[6];
    Py_ssize_t max_logged;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$O!O!OOOOn:configure_channels", names,
                                     &PyType_Type, &values[0], &PyType_Type, &values[1],
                                     &values[2], &values[3], &values[4], &values[5],
                                     &max_logged))
        return NULL;
    Py_ssize_t channel_found[C_FIELDS], log_found[1];
    if (slot_offsets(values[0], channel_names, channel_found, C_FIELDS) < 0) return NULL;
    if (slot_offsets(values[1], log_names, log_found, 1) < 0) return NULL;
    memcpy(channel_at, channel_found, sizeof channel_found);
    memcpy(log_at, log_found, sizeof log_found);
    PyObject **targets[] = {(PyObject **)&channel_type, (PyObject **)&log_type,
                            &config.wire_text,          &config.monotonic,
                            &config.create_future,      &config.future_type};
    replace_objects(targets, values, 6, channels_ready);
    config.max_logged = max_logged;
    channels_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *configure_connections(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"connection", "write", "read_size", NULL};
    PyObject *type, *write;
    Py_ssize_t size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$O!On:configure_connections", names,
                                     &PyType_Type, &type, &write, &size))
        return NULL;
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "read_size must be positive");
        return NULL;
    }
    if (slot_offsets(type, connection_names, connection_at, F_FIELDS) < 0) return NULL;
    char *buffer = PyMem_Realloc(read_buffer, (size_t)size);
    if (buffer == NULL) return PyErr_NoMemory();
    read_buffer = buffer;
    read_size = size;
    PyObject **targets[] = {(PyObject **)&connection_type, &connection_write};
    PyObject *values[] = {type, write};
    replace_objects(targets, values, 2, connection_type != NULL);
    Py_RETURN_NONE;
}

static PyObject *py_decode_whole(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "decode_whole(decoder, data)");
        return NULL;
    }
    if (!codecs_ready) Py_RETURN_NONE;
    PyObject *message = decode_whole(args[0], args[1]);
    if (message == NULL && !PyErr_Occurred()) Py_RETURN_NONE;
    if (message == NULL) return NULL;
    PyObject *result = PyTuple_Pack(1, message);
    Py_DECREF(message);
    return result;
}

static PyObject *py_encode(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "encode(codec, message)");
        return NULL;
    }
    if (!codecs_ready) return PyObject_CallMethodOneArg(args[0], s_encode, args[1]);
    return encode(args[0], args[1]);
}

static PyMethodDef module_methods[] = {
    {"configure_codecs", (PyCFunction)(void (*)(void))configure_codecs,
     METH_VARARGS | METH_KEYWORDS,
     "Hand over the codec types and json's functions the compiled codecs stand in for."},
    {"configure_channels", (PyCFunction)(void (*)(void))configure_channels,
     METH_VARARGS | METH_KEYWORDS, "Hand over what the compiled channel path logs with."},
    {"configure_connections", (PyCFunction)(void (*)(void))configure_connections,
     METH_VARARGS | METH_KEYWORDS, "Hand over the connection type the compiled read and write serve."},
    {"configure_replies", (PyCFunction)(void (*)(void))configure_replies,
     METH_VARARGS | METH_KEYWORDS, "Hand over the Reply type the compiled table step makes."},
    {"configure_events", (PyCFunction)(void (*)(void))configure_events,
     METH_VARARGS | METH_KEYWORDS, "Hand over the Event type the compiled events make."},
    {"events", (PyCFunction)(void (*)(void))fast_events, METH_FASTCALL,
     "events(entries, t0, max_logged): EventLog.events of the entries, or None."},
    {"log_columns", (PyCFunction)fast_log_columns, METH_O,
     "log_columns(events): a stored log's columns of the events, or None."},
    {"drain", (PyCFunction)fast_drain, METH_O,
     "drain(channel): channel.drain(), without the call while nothing waits."},
    {"reply", (PyCFunction)(void (*)(void))fast_reply, METH_FASTCALL,
     "reply(result, limit, unsolicited): the Reply of a request answered."},
    {"ask", (PyCFunction)(void (*)(void))fast_ask, METH_FASTCALL,
     "ask(channel, message, delay): Channel.ask, compiled."},
    {"decode_whole", (PyCFunction)(void (*)(void))py_decode_whole, METH_FASTCALL,
     "decode_whole(decoder, data): (message,) if the read is decoded here, else None."},
    {"encode", (PyCFunction)(void (*)(void))py_encode, METH_FASTCALL,
     "encode(codec, message): the bytes the codec writes for message."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "arena_kernel.codecs._fast",
    "The line and jsonl codecs' usual messages and a channel's usual round trip, compiled\n"
    "(see arena_kernel.codecs.compiled and arena_kernel.referee.hot_path).",
    -1,
    module_methods,
};

#define INTERN(var, text)                                  \
    do {                                                   \
        if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL; \
    } while (0)

PyMODINIT_FUNC PyInit__fast(void) {
    INTERN(s_closed, "closed");
    INTERN(s_waiter, "_waiter");
    INTERN(s_cpu, "_cpu");
    INTERN(s_owed, "_owed");
    INTERN(s_deadline, "_deadline");
    INTERN(s_decoder, "_decoder");
    INTERN(s_sent_at, "_sent_at");
    INTERN(s_log, "log");
    INTERN(s_record, "record");
    INTERN(s_seat, "seat");
    INTERN(s_answered, "answered");
    INTERN(s_buf, "_buf");
    INTERN(s_skipping, "_skipping");
    INTERN(s_max, "_max");
    INTERN(s_loop, "_loop");
    INTERN(s_create_future, "create_future");
    INTERN(s_codec, "codec");
    INTERN(s_encode, "encode");
    INTERN(s_pending_bytes, "_pending_bytes");
    INTERN(s_check_at, "_check_at");
    INTERN(s_connection, "connection");
    INTERN(s_write, "write");
    INTERN(s_end, "_end");
    INTERN(s_timer, "_timer");
    INTERN(s_timer_at, "_timer_at");
    INTERN(s_cancel, "cancel");
    INTERN(s_set_timer, "_set_timer");
    INTERN(s_request, "request");
    INTERN(s_done, "done");
    INTERN(s_set_result, "set_result");
    INTERN(s_on_data, "_on_data");
    INTERN(s_recv, "recv");
    INTERN(s_send, "send");
    INTERN(s_empty, "");
    INTERN(s_read_once, "_read_once");
    INTERN(s_not_read, "_not_read");
    INTERN(s_drain, "drain");
    if ((s_zero_float = PyFloat_FromDouble(0.0)) == NULL) return NULL;
    if ((s_zero_int = PyLong_FromLong(0)) == NULL) return NULL;
    {
        PyObject *loop_kw = PyUnicode_InternFromString("loop");
        if (loop_kw == NULL) return NULL;
        s_loop_kwnames = PyTuple_Pack(1, loop_kw);
        Py_DECREF(loop_kw);
        if (s_loop_kwnames == NULL) return NULL;
    }
    if (PyType_Ready(&ReaderType) < 0) return NULL;
    if (PyType_Ready(&FdReaderType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    Py_INCREF(&ReaderType);
    if (PyModule_AddObject(module, "Reader", (PyObject *)&ReaderType) < 0) {
        Py_DECREF(&ReaderType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&FdReaderType);
    if (PyModule_AddObject(module, "FdReader", (PyObject *)&FdReaderType) < 0) {
        Py_DECREF(&FdReaderType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
