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
#include <string.h>

typedef struct {
    PyObject *line_decoder;  /* the exact types whose reads are decoded here */
    PyObject *jsonl_decoder;
    PyObject *line_codec;
    PyObject *jsonl_codec;
    PyObject *scan_once;  /* json's C scanner */
    PyObject *encode_json; /* the C encoder JsonlCodec's _encode calls, or None */
    PyObject *wire_text;
    PyObject *monotonic;
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
    *s_empty;

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

    PyObject *buf = PyObject_GetAttr(decoder, s_buf);
    if (buf == NULL) return NULL;
    Py_ssize_t buffered = PyObject_Length(buf);
    Py_DECREF(buf);
    if (buffered != 0) {
        if (buffered < 0) return NULL;
        return NULL;
    }
    PyObject *skipping = PyObject_GetAttr(decoder, s_skipping);
    if (skipping == NULL) return NULL;
    int skip = PyObject_IsTrue(skipping);
    Py_DECREF(skipping);
    if (skip != 0) return NULL;
    PyObject *max = PyObject_GetAttr(decoder, s_max);
    if (max == NULL) return NULL;
    Py_ssize_t limit = PyLong_AsSsize_t(max);
    Py_DECREF(max);
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
} Reader;

static int is_none_attr(PyObject *obj, PyObject *name, int *result) {
    PyObject *value = PyObject_GetAttr(obj, name);
    if (value == NULL) return -1;
    *result = value == Py_None;
    Py_DECREF(value);
    return 0;
}

static double float_attr(PyObject *obj, PyObject *name) {
    PyObject *value = PyObject_GetAttr(obj, name);
    if (value == NULL) return -1.0;
    double result = PyFloat_AsDouble(value);
    Py_DECREF(value);
    return result;
}

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

/* 1: the usual reply, delivered; 0: not that case, nothing changed; -1: an error. */
static int deliver_usual(PyObject *channel, PyObject *data) {
    int none;
    if (is_none_attr(channel, s_closed, &none) < 0) return -1;
    if (!none) return 0;
    PyObject *waiter = PyObject_GetAttr(channel, s_waiter);
    if (waiter == NULL) return -1;
    int handled = 0;
    PyObject *stamp = NULL, *message = NULL, *elapsed = NULL;
    if (waiter == Py_None) goto done;
    PyObject *finished = PyObject_CallMethodNoArgs(waiter, s_done);
    if (finished == NULL) goto fail;
    int is_done = PyObject_IsTrue(finished);
    Py_DECREF(finished);
    if (is_done) {
        if (is_done < 0) goto fail;
        goto done;
    }
    if (is_none_attr(channel, s_cpu, &none) < 0) goto fail;
    if (!none) goto done;
    PyObject *owed = PyObject_GetAttr(channel, s_owed);
    if (owed == NULL) goto fail;
    Py_ssize_t owing = PyObject_Length(owed);
    Py_DECREF(owed);
    if (owing != 0) {
        if (owing < 0) goto fail;
        goto done;
    }
    double arrived;
    stamp = monotonic_now(&arrived);
    if (stamp == NULL) goto fail;
    double deadline = float_attr(channel, s_deadline);
    if (deadline == -1.0 && PyErr_Occurred()) goto fail;
    if (arrived > deadline) goto done;
    if (PyBytes_GET_SIZE(data) > config.max_logged) goto done;
    PyObject *decoder = PyObject_GetAttr(channel, s_decoder);
    if (decoder == NULL) goto fail;
    message = decode_whole(decoder, data);
    Py_DECREF(decoder);
    if (message == NULL) {
        if (PyErr_Occurred()) goto fail;
        goto done;
    }
    double sent_at = float_attr(channel, s_sent_at);
    if (sent_at == -1.0 && PyErr_Occurred()) goto fail;
    elapsed = PyFloat_FromDouble(arrived - sent_at);
    if (elapsed == NULL) goto fail;
    PyObject *log = PyObject_GetAttr(channel, s_log);
    if (log == NULL) goto fail;
    if (log != Py_None) {
        PyObject *seat = PyObject_GetAttr(channel, s_seat);
        if (seat == NULL) {
            Py_DECREF(log);
            goto fail;
        }
        PyObject *entry = PyTuple_Pack(6, stamp, s_recv, seat, data, elapsed, Py_None);
        Py_DECREF(seat);
        if (entry == NULL) {
            Py_DECREF(log);
            goto fail;
        }
        PyObject *done_ = PyObject_CallMethodOneArg(log, s_record, entry);
        Py_DECREF(entry);
        Py_DECREF(log);
        if (done_ == NULL) goto fail;
        Py_DECREF(done_);
    } else {
        Py_DECREF(log);
    }
    if (PyObject_SetAttr(channel, s_waiter, Py_None) < 0) goto fail;
    if (PyObject_SetAttr(channel, s_answered, Py_True) < 0) goto fail;
    PyObject *result = PyTuple_Pack(3, message, elapsed, Py_None);
    if (result == NULL) goto fail;
    PyObject *set = PyObject_CallMethodOneArg(waiter, s_set_result, result);
    Py_DECREF(result);
    if (set == NULL) goto fail;
    Py_DECREF(set);
    handled = 1;
done:
    Py_XDECREF(stamp);
    Py_XDECREF(message);
    Py_XDECREF(elapsed);
    Py_DECREF(waiter);
    return handled;
fail:
    Py_XDECREF(stamp);
    Py_XDECREF(message);
    Py_XDECREF(elapsed);
    Py_DECREF(waiter);
    return -1;
}

static PyObject *Reader_call(Reader *self, PyObject *args, PyObject *kwargs) {
    PyObject *data;
    if (!PyArg_ParseTuple(args, "O:Reader", &data)) return NULL;
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
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Reader_init,
    .tp_call = (ternaryfunc)Reader_call,
    .tp_traverse = (traverseproc)Reader_traverse,
    .tp_clear = (inquiry)Reader_clear,
    .tp_dealloc = (destructor)Reader_dealloc,
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

static int end_if_closed(PyObject *channel, PyObject *waiter) {
    PyObject *closed = PyObject_GetAttr(channel, s_closed);
    if (closed == NULL) return -1;
    int status = 0;
    if (closed != Py_None) {
        PyObject *finished = PyObject_CallMethodNoArgs(waiter, s_done);
        if (finished == NULL) {
            status = -1;
        } else {
            int is_done = PyObject_IsTrue(finished);
            Py_DECREF(finished);
            if (is_done < 0) {
                status = -1;
            } else if (!is_done) {
                PyObject *ended = PyObject_CallMethodObjArgs(channel, s_end, waiter, closed,
                                                             s_zero_float, NULL);
                if (ended == NULL) status = -1;
                Py_XDECREF(ended);
            }
        }
    }
    Py_DECREF(closed);
    return status;
}

static PyObject *fast_ask(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "ask(channel, message, delay)");
        return NULL;
    }
    PyObject *channel = args[0], *message = args[1], *delay_obj = args[2];
    double delay = PyFloat_AsDouble(delay_obj);
    if (delay == -1.0 && PyErr_Occurred()) return NULL;
    PyObject *loop = PyObject_GetAttr(channel, s_loop);
    if (loop == NULL) return NULL;
    if (loop == Py_None || !codecs_ready || !channels_ready) {
        Py_DECREF(loop);
        return PyObject_CallMethodObjArgs(channel, s_request, message, delay_obj, NULL);
    }
    PyObject *waiter = PyObject_CallMethodNoArgs(loop, s_create_future);
    Py_DECREF(loop);
    if (waiter == NULL) return NULL;
    PyObject *data = NULL, *stamp = NULL, *check = NULL;
    if (PyObject_SetAttr(channel, s_waiter, waiter) < 0) goto fail;
    PyObject *codec = PyObject_GetAttr(channel, s_codec);
    if (codec == NULL) goto fail;
    data = encode(codec, message);
    Py_DECREF(codec);
    if (data == NULL) goto fail;
    if (PyObject_SetAttr(channel, s_cpu, Py_None) < 0) goto fail;
    double sent_at;
    stamp = monotonic_now(&sent_at);
    if (stamp == NULL) goto fail;
    if (PyObject_SetAttr(channel, s_sent_at, stamp) < 0) goto fail;
    if (PyObject_SetAttr(channel, s_pending_bytes, s_zero_int) < 0) goto fail;
    double check_at = sent_at + delay;
    check = PyFloat_FromDouble(check_at);
    if (check == NULL) goto fail;
    if (PyObject_SetAttr(channel, s_check_at, check) < 0) goto fail;
    if (PyObject_SetAttr(channel, s_deadline, check) < 0) goto fail;

    PyObject *log = PyObject_GetAttr(channel, s_log);
    if (log == NULL) goto fail;
    if (log != Py_None) {
        PyObject *text;
        Py_ssize_t size = PyObject_Length(data);
        if (size < 0) {
            Py_DECREF(log);
            goto fail;
        }
        if (size <= config.max_logged) {
            Py_INCREF(data);
            text = data;
        } else {
            text = PyObject_CallOneArg(config.wire_text, data);
        }
        PyObject *seat = text == NULL ? NULL : PyObject_GetAttr(channel, s_seat);
        PyObject *entry = seat == NULL
                              ? NULL
                              : PyTuple_Pack(6, stamp, s_send, seat, text, Py_None, Py_None);
        Py_XDECREF(seat);
        Py_XDECREF(text);
        PyObject *recorded = entry == NULL ? NULL : PyObject_CallMethodOneArg(log, s_record, entry);
        Py_XDECREF(entry);
        Py_DECREF(log);
        if (recorded == NULL) goto fail;
        Py_DECREF(recorded);
    } else {
        Py_DECREF(log);
    }

    int none;
    if (is_none_attr(channel, s_closed, &none) < 0) goto fail;
    if (none) {
        PyObject *connection = PyObject_GetAttr(channel, s_connection);
        if (connection == NULL) goto fail;
        if (connection != Py_None) {
            PyObject *written = PyObject_CallMethodOneArg(connection, s_write, data);
            Py_DECREF(connection);
            if (written == NULL) goto fail;
            Py_DECREF(written);
        } else {
            Py_DECREF(connection);
        }
    }
    if (end_if_closed(channel, waiter) < 0) goto fail;

    PyObject *timer = PyObject_GetAttr(channel, s_timer);
    if (timer == NULL) goto fail;
    int move = timer == Py_None;
    if (!move) {
        double timer_at = float_attr(channel, s_timer_at);
        if (timer_at == -1.0 && PyErr_Occurred()) {
            Py_DECREF(timer);
            goto fail;
        }
        if (timer_at > check_at) {
            move = 1;
            PyObject *cancelled = PyObject_CallMethodNoArgs(timer, s_cancel);
            if (cancelled == NULL) {
                Py_DECREF(timer);
                goto fail;
            }
            Py_DECREF(cancelled);
        }
    }
    Py_DECREF(timer);
    if (move) {
        PyObject *set = PyObject_CallMethodOneArg(channel, s_set_timer, check);
        if (set == NULL) goto fail;
        Py_DECREF(set);
    }
    Py_DECREF(data);
    Py_DECREF(stamp);
    Py_DECREF(check);
    return waiter;
fail:
    Py_XDECREF(data);
    Py_XDECREF(stamp);
    Py_XDECREF(check);
    Py_DECREF(waiter);
    return NULL;
}

/* ---- configuration ---------------------------------------------------------------- */

static int replace_objects(PyObject **targets[], PyObject *values[], size_t count, int had) {
    for (size_t i = 0; i < count; i++) {
        Py_INCREF(values[i]);
        if (had) Py_DECREF(*targets[i]);
        *targets[i] = values[i];
    }
    return 0;
}

static PyObject *configure_codecs(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"line_decoder", "jsonl_decoder", "line_codec", "jsonl_codec",
                            "scan_once",    "encode_json",   "max_depth",  NULL};
    PyObject *values[6];
    Py_ssize_t max_depth;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOOOOOn:configure_codecs", names,
                                     &values[0], &values[1], &values[2], &values[3],
                                     &values[4], &values[5], &max_depth))
        return NULL;
    PyObject **targets[] = {&config.line_decoder, &config.jsonl_decoder, &config.line_codec,
                            &config.jsonl_codec,  &config.scan_once,     &config.encode_json};
    replace_objects(targets, values, 6, codecs_ready);
    config.max_depth = max_depth;
    codecs_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *configure_channels(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"wire_text", "monotonic", "max_logged", NULL};
    PyObject *values[2];
    Py_ssize_t max_logged;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOn:configure_channels", names,
                                     &values[0], &values[1], &max_logged))
        return NULL;
    PyObject **targets[] = {&config.wire_text, &config.monotonic};
    replace_objects(targets, values, 2, channels_ready);
    config.max_logged = max_logged;
    channels_ready = 1;
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
    if ((s_zero_float = PyFloat_FromDouble(0.0)) == NULL) return NULL;
    if ((s_zero_int = PyLong_FromLong(0)) == NULL) return NULL;
    if (PyType_Ready(&ReaderType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    Py_INCREF(&ReaderType);
    if (PyModule_AddObject(module, "Reader", (PyObject *)&ReaderType) < 0) {
        Py_DECREF(&ReaderType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
