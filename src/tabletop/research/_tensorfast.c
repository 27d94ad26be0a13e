/*
 * _tensorfast.c -- the research tensors' two hot loops in C (CPython extension, C11).
 *
 * Every observation handed to a network is scaled onto [0, 1] (``encoding.Scaler``),
 * and OpenSpiel's ``observation_tensor`` hands it over as a Python list. numpy does the
 * first in two passes with a slow int16 -> float32 cast, and ``tolist()`` makes a new
 * float per entry; here both are one pass. The numpy code stays the reference:
 * tests/research/test_tensorfast.py checks the results are bitwise the same. The module
 * is optional (setup.py builds it where a compiler is found; numpy serves otherwise).
 *
 * Build with -ffp-contract=off: (raw - low) * factor must round twice, as numpy does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A contiguous buffer of ``count`` items of ``format`` (``writable``: to write into). */
static int get_array(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t size,
                     Py_ssize_t count, int writable, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '=' || *f == '<' || *f == '@') f++;
    if (view->itemsize != size || strcmp(f, format) != 0 ||
        (count >= 0 && view->len != count * size)) {
        const char *type = size == 4 ? "float32" : "int16";
        if (count < 0)
            PyErr_Format(PyExc_ValueError, "%s must be a contiguous %s array", what, type);
        else
            PyErr_Format(PyExc_ValueError, "%s must be a contiguous %s array of %zd entries",
                         what, type, count);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* scale(out, raw, low, factor): out[i] = (raw[i] - low[i]) * factor[i] in float32, as
 * ``Scaler.__call__``; raw int16, the others float32, all of one length. */
static PyObject *py_scale(PyObject *self, PyObject *args) {
    PyObject *out_obj, *raw_obj, *low_obj, *factor_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &out_obj, &raw_obj, &low_obj, &factor_obj)) return NULL;
    Py_buffer out, raw, low, factor;
    if (get_array(raw_obj, &raw, "h", 2, -1, 0, "raw") < 0) return NULL;
    Py_ssize_t n = raw.len / 2;
    if (get_array(out_obj, &out, "f", 4, n, 1, "out") < 0) goto no_out;
    if (get_array(low_obj, &low, "f", 4, n, 0, "low") < 0) goto no_low;
    if (get_array(factor_obj, &factor, "f", 4, n, 0, "factor") < 0) goto no_factor;
    const int16_t *r = raw.buf;
    const float *l = low.buf, *k = factor.buf;
    float *o = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        float d = (float)r[i] - l[i];
        o[i] = d * k[i];
    }
    PyBuffer_Release(&factor);
    PyBuffer_Release(&low);
    PyBuffer_Release(&out);
    PyBuffer_Release(&raw);
    Py_RETURN_NONE;
no_factor:
    PyBuffer_Release(&low);
no_low:
    PyBuffer_Release(&out);
no_out:
    PyBuffer_Release(&raw);
    return NULL;
}

/* Floats made before, by their bits: a scaled observation holds few distinct values (0.0
 * most of all), so nearly every entry reuses one (floats are immutable: sharing them is
 * safe) instead of making a new float, which was most of a list's cost. Direct-mapped. */
#define CACHED 1024
static struct { uint32_t bits; PyObject *value; } cache[CACHED];

static PyObject *float_of(float x) {
    uint32_t bits;
    memcpy(&bits, &x, 4);
    unsigned slot = (bits * 2654435761u) >> 22; /* 10 bits of a multiplicative hash */
    PyObject *value = cache[slot].value;
    if (value && cache[slot].bits == bits) {
        Py_INCREF(value);
        return value;
    }
    value = PyFloat_FromDouble((double)x);
    if (!value) return NULL;
    Py_XDECREF(cache[slot].value);
    cache[slot].bits = bits;
    cache[slot].value = value;
    Py_INCREF(value);
    return value;
}

/* The shared 0.0s: entry i gets zeros[i % ZEROS]. Most entries are 0.0, and freeing the
 * list decrements each entry's count in turn: with one shared zero that is a chain of
 * dependent writes to one address (the list's whole cost doubled); eight objects make
 * eight short chains the CPU runs side by side. */
#define ZEROS 8
static PyObject *zeros_of[ZEROS];

/* as_list(tensor): ``tensor.tolist()`` of a float32 array, equal values shared. The
 * zeros' references are counted in registers and added at the end, for the same reason
 * as above. */
static PyObject *py_as_list(PyObject *self, PyObject *arg) {
    Py_buffer in;
    if (get_array(arg, &in, "f", 4, -1, 0, "tensor") < 0) return NULL;
    Py_ssize_t n = in.len / 4, zeros[ZEROS] = {0};
    const uint32_t *bits = in.buf;
    PyObject *list = PyList_New(n);
    if (!list) { PyBuffer_Release(&in); return NULL; }
    PyObject **items = ((PyListObject *)list)->ob_item;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!bits[i]) {
            items[i] = zeros_of[i % ZEROS];
            zeros[i % ZEROS]++;
            continue;
        }
        float x;
        memcpy(&x, bits + i, 4);
        if (!(items[i] = float_of(x))) {
            for (Py_ssize_t j = 0; j < i; j++)
                if (items[j] == zeros_of[j % ZEROS]) items[j] = NULL; /* not counted yet */
            Py_DECREF(list);
            PyBuffer_Release(&in);
            return NULL;
        }
    }
    for (int k = 0; k < ZEROS; k++)
        Py_SET_REFCNT(zeros_of[k], Py_REFCNT(zeros_of[k]) + zeros[k]);
    PyBuffer_Release(&in);
    return list;
}

static PyMethodDef Methods[] = {
    {"scale", py_scale, METH_VARARGS,
     "scale(out, raw, low, factor): out = (raw - low) * factor in float32 (raw int16; out, "
     "low and factor float32; one length)"},
    {"as_list", py_as_list, METH_O,
     "as_list(tensor): a float32 array's tolist(), equal entries one shared float"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_tensorfast",
                                    "The research tensors' scaling and listing in C", -1,
                                    Methods};

PyMODINIT_FUNC PyInit__tensorfast(void) {
    for (int k = 0; k < ZEROS; k++)
        if (!(zeros_of[k] = PyFloat_FromDouble(0.0))) return NULL;
    return PyModule_Create(&moddef);
}
