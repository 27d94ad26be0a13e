/*
 * _nmbr9fast.c -- the research encoding's legal-placement mask in C (CPython extension, C11).
 *
 * The pure Python rules are the reference: ``window.legal_mask`` computes the same
 * mask from the rules' bitboards, and tests/research/test_nmbr9_fast.py checks the two
 * agree on random positions. This module is optional (setup.py builds it when a compiler
 * is there); without it the encoding uses the Python mask.
 *
 * The mask: ``4 * size * size`` bytes, 1 at ``rotation * size * size + (y + half) * size
 * + (x + half)`` (``half = size // 2``) for every legal placement of ``digit`` turned
 * ``rotation`` (a distinct rotation) with the top-left corner of its box on (x, y) and
 * every square inside the window. The rules (as ``Board.check`` states them): every
 * square under the tile at the same height ``level``; above the table, at least two
 * different tiles under it; and while some tile lies on ``level`` already, the new tile
 * shares a square edge with one of them.
 *
 * Grid: the window plus a ring of one square (a tile just outside the window can be
 * touched from inside it), at most 64 columns so that a row is one 64-bit word: bit
 * ``gx`` of a row is window column ``gx - 1``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define MAXGRID 64          /* grid columns and rows: size + 2 */
#define MAXLEVELS 24        /* more than the 20 tiles of a game can stack */
#define MAXTILES 255        /* a tile index + 1 fits a byte */
#define MAXCELLS 16

typedef struct { int n, w, h; int dx[MAXCELLS], dy[MAXCELLS]; } Shape;

static Shape SHAPES[10][4];   /* every rotation, as the rules' SHAPES */
static int DISTINCT[10][4];   /* the distinct rotations of each digit */
static int NDISTINCT[10];
static int ready = 0;

static int read_cells(PyObject *cells, Shape *s) {
    PyObject *seq = PySequence_Fast(cells, "cells must be a sequence of (dx, dy)");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAXCELLS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a shape has 1 to 16 squares");
        return -1;
    }
    s->n = (int)n; s->w = s->h = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int dx, dy;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &dx, &dy)) {
            Py_DECREF(seq); return -1;
        }
        if (dx < 0 || dx > 3 || dy < 0 || dy > 3) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a shape lies within 4 x 4 squares");
            return -1;
        }
        s->dx[i] = dx; s->dy[i] = dy;
        if (dx + 1 > s->w) s->w = dx + 1;
        if (dy + 1 > s->h) s->h = dy + 1;
    }
    Py_DECREF(seq);
    return 0;
}

/* setup(shapes, distinct): shapes[digit][rotation] = squares (dx, dy); distinct[digit] =
 * its distinct rotations. Called once by the encoding with the rules' tiles. */
static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *shapes, *distinct;
    if (!PyArg_ParseTuple(args, "OO", &shapes, &distinct)) return NULL;
    if (PySequence_Size(shapes) != 10 || PySequence_Size(distinct) != 10) {
        PyErr_SetString(PyExc_ValueError, "ten digits");
        return NULL;
    }
    for (int d = 0; d < 10; d++) {
        PyObject *rotations = PySequence_GetItem(shapes, d);
        if (!rotations) return NULL;
        if (PySequence_Size(rotations) != 4) {
            Py_DECREF(rotations);
            PyErr_SetString(PyExc_ValueError, "four rotations per digit");
            return NULL;
        }
        for (int r = 0; r < 4; r++) {
            PyObject *cells = PySequence_GetItem(rotations, r);
            int bad = !cells || read_cells(cells, &SHAPES[d][r]);
            Py_XDECREF(cells);
            if (bad) { Py_DECREF(rotations); return NULL; }
        }
        Py_DECREF(rotations);
        PyObject *rs = PySequence_GetItem(distinct, d);
        if (!rs) return NULL;
        PyObject *seq = PySequence_Fast(rs, "distinct rotations must be a sequence");
        Py_DECREF(rs);
        if (!seq) return NULL;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (n < 1 || n > 4) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "1 to 4 distinct rotations");
            return NULL;
        }
        NDISTINCT[d] = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            long r = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (r < 0 || r > 3) {
                Py_DECREF(seq);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a rotation is 0-3");
                return NULL;
            }
            DISTINCT[d][i] = (int)r;
        }
        Py_DECREF(seq);
    }
    ready = 1;
    Py_RETURN_NONE;
}

/* One tile (digit, rotation, x, y, level): a tuple's items read directly (the rules'
 * Placed tuples; PyArg_ParseTuple took half the mask's time), anything else parsed. */
static int read_tile(PyObject *tile, int *d, int *r, int *x, int *y, int *level) {
    if (!PyTuple_Check(tile) || PyTuple_GET_SIZE(tile) != 5)
        return PyArg_ParseTuple(tile, "iiiii", d, r, x, y, level) ? 0 : -1;
    int *into[5] = {d, r, x, y, level};
    for (int k = 0; k < 5; k++) {
        PyObject *item = PyTuple_GET_ITEM(tile, k);
        int overflow;
        long v = PyLong_Check(item) ? PyLong_AsLongAndOverflow(item, &overflow) : -1;
        if (!PyLong_Check(item) || overflow || v < INT_MIN || v > INT_MAX) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a tile is five ints (digit, rotation, x, y, level)");
            return -1;
        }
        *into[k] = (int)v;
    }
    return 0;
}

/* A tile as the mask's kernel reads it: x, y are the window column and row of its box's
 * top-left corner (board x + size / 2), clamped to -8 .. size + 8 (a tile further out
 * has no square on the grid either way). */
typedef struct { uint8_t digit, rotation, level; int8_t x, y; } Tile;

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* The legal placements of ``digit`` inside the window on the board of ``tiles`` (in the
 * order laid, at least one; levels below MAXLEVELS - 1) as bits: bit x of
 * ``bits[rotation * size + y]`` for the box's top-left corner on window square (x, y).
 * Returns how many. Only the levels used and, per level, the rows near its tiles are
 * cleared and scanned: a placement on a level with tiles touches one of them, and one
 * above the table lies on the tiles of the level below. */
static int legal_bits(const Tile *tiles, int count, int digit, int size, uint64_t *bits) {
    int grid = size + 2, levels = 0;
    for (int i = 0; i < count; i++)
        if (tiles[i].level + 1 > levels) levels = tiles[i].level + 1;
    /* occ[k][gy]: squares covered on level k; rows 0 and grid + 1 are empty padding so
     * that a row's neighbours above and below always exist (grid row gy is occ row gy+1) */
    uint64_t occ[MAXLEVELS][MAXGRID + 2];
    uint8_t top[MAXGRID][MAXGRID];   /* 1 + index of the top tile on a square, 0: none */
    int per_level[MAXLEVELS], lo[MAXLEVELS], hi[MAXLEVELS];  /* grid rows with squares */
    memset(occ, 0, (size_t)(levels + 1) * sizeof occ[0]);
    memset(top, 0, (size_t)grid * sizeof top[0]);
    for (int k = 0; k <= levels; k++) { per_level[k] = 0; lo[k] = grid; hi[k] = -1; }
    for (int i = 0; i < count; i++) {
        const Tile *t = &tiles[i];
        const Shape *s = &SHAPES[t->digit][t->rotation];
        per_level[t->level]++;
        for (int q = 0; q < s->n; q++) {
            int gx = t->x + s->dx[q] + 1, gy = t->y + s->dy[q] + 1;
            if (gx < 0 || gx >= grid || gy < 0 || gy >= grid) continue;  /* beyond the ring */
            occ[t->level][gy + 1] |= 1ULL << gx;
            top[gy][gx] = (uint8_t)(i + 1);
            if (gy < lo[t->level]) lo[t->level] = gy;
            if (gy > hi[t->level]) hi[t->level] = gy;
        }
    }
    memset(bits, 0, (size_t)4 * size * sizeof *bits);
    /* window squares of a row: grid columns 1 .. size */
    uint64_t inside = ((1ULL << size) - 1) << 1;
    uint64_t S[MAXGRID + 2], N[MAXGRID + 2];
    int found = 0;
    for (int level = 0; level <= levels && level < MAXLEVELS - 1; level++) {
        if (level > 0 && per_level[level - 1] < 2) continue;  /* nothing rests on one tile */
        int touch = level < levels;  /* tiles on this level already: touch one of them */
        int first = 1, last = size;  /* grid rows where a tile's top row may lie */
        if (level > 0) { first = imax(first, lo[level - 1]); last = imin(last, hi[level - 1]); }
        if (touch) { first = imax(first, lo[level] - 4); last = imin(last, hi[level] + 1); }
        if (first > last) continue;
        int end = imin(last + 4, grid + 1);  /* the last occ row a tile there covers */
        for (int row = first + 1; row <= end; row++) {
            int real = row >= 2 && row <= size + 1;  /* a window row (grid rows 1 .. size) */
            uint64_t here = occ[level][row];
            uint64_t below = level ? occ[level - 1][row] : ~0ULL;
            S[row] = real ? below & ~here & inside : 0;  /* squares of height == level */
            if (touch) {
                uint64_t above = occ[level][row - 1];
                uint64_t under = row < grid + 1 ? occ[level][row + 1] : 0;
                N[row] = ((here << 1) | (here >> 1) | above | under) & ~here;
            }
        }
        for (int i = 0; i < NDISTINCT[digit]; i++) {
            int r = DISTINCT[digit][i];
            const Shape *s = &SHAPES[digit][r];
            uint64_t *plane = bits + (size_t)r * size;
            for (int gy = first; gy <= last && gy + s->h - 1 <= size; gy++) {
                uint64_t fit = ~0ULL, adjacent = 0;
                for (int q = 0; q < s->n && fit; q++) {
                    int row = gy + s->dy[q] + 1;
                    fit &= S[row] >> s->dx[q];
                    if (touch) adjacent |= N[row] >> s->dx[q];
                }
                if (touch) fit &= adjacent;
                if (level == 0) {  /* on the table: every fit is legal */
                    plane[gy - 1] |= fit >> 1;
                    continue;
                }
                while (fit) {  /* above it: two different tiles under it */
                    int gx = __builtin_ctzll(fit);
                    fit &= fit - 1;
                    int under = top[gy + s->dy[0]][gx + s->dx[0]], two = 0;
                    for (int q = 1; q < s->n && !two; q++)
                        two = top[gy + s->dy[q]][gx + s->dx[q]] != under;
                    if (two) plane[gy - 1] |= 1ULL << (gx - 1);
                }
            }
        }
    }
    for (int i = 0; i < 4 * size; i++) found += __builtin_popcountll(bits[i]);
    return found;
}

/* Spread mask bits into a byte per action (``out``: 4 * size * size bytes). */
static void bits_to_bytes(const uint64_t *bits, int size, char *out) {
    memset(out, 0, (size_t)4 * size * size);
    for (int row = 0; row < 4 * size; row++)
        for (uint64_t b = bits[row]; b; b &= b - 1)
            out[(size_t)row * size + __builtin_ctzll(b)] = 1;
}

/* window_mask(out, tiles, digit, size): set ``out`` (a writable buffer of 4 * size * size
 * bytes) to the mask of ``digit`` on the board of ``tiles`` ((digit, rotation, x, y,
 * level) in the order laid, at least one); ValueError for a size above 62. */
static PyObject *py_window_mask(PyObject *self, PyObject *args) {
    Py_buffer out;
    PyObject *tiles;
    int digit, size;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "w*Oii", &out, &tiles, &digit, &size)) return NULL;
    PyObject *seq = NULL;
    if (digit < 0 || digit > 9 || size < 1 || size > MAXGRID - 2) {
        PyErr_SetString(PyExc_ValueError, "a digit 0-9 and a size of 1 to 62 squares");
        goto fail;
    }
    if (out.len != (Py_ssize_t)4 * size * size) {
        PyErr_SetString(PyExc_ValueError, "out must hold 4 * size * size bytes");
        goto fail;
    }
    seq = PySequence_Fast(tiles, "tiles must be a sequence of (digit, rotation, x, y, level)");
    if (!seq) goto fail;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count < 1 || count > MAXTILES) {
        PyErr_SetString(PyExc_ValueError, "1 to 255 tiles");
        goto fail;
    }
    Tile board[MAXTILES];
    int half = size / 2;
    for (Py_ssize_t i = 0; i < count; i++) {
        int d, r, x, y, level;
        if (read_tile(PySequence_Fast_GET_ITEM(seq, i), &d, &r, &x, &y, &level) < 0) goto fail;
        if (d < 0 || d > 9 || r < 0 || r > 3 || level < 0 || level >= MAXLEVELS - 1) {
            PyErr_SetString(PyExc_ValueError, "bad tile: (digit 0-9, rotation 0-3, x, y, level)");
            goto fail;
        }
        long wx = (long)x + half, wy = (long)y + half;
        board[i].digit = (uint8_t)d;
        board[i].rotation = (uint8_t)r;
        board[i].level = (uint8_t)level;
        board[i].x = (int8_t)(wx < -8 ? -8 : wx > size + 8 ? size + 8 : wx);
        board[i].y = (int8_t)(wy < -8 ? -8 : wy > size + 8 ? size + 8 : wy);
    }
    uint64_t bits[4 * (MAXGRID - 2)];
    legal_bits(board, (int)count, digit, size, bits);
    bits_to_bytes(bits, size, (char *)out.buf);
    Py_DECREF(seq);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(seq);
    PyBuffer_Release(&out);
    return NULL;
}

/* The ints 0 .. n_ints - 1, made once and shared by every list of indices: a new int
 * per entry (above 256, Python's own small ints) was most of a list's cost. */
static PyObject **ints = NULL;
static Py_ssize_t n_ints = 0;

static int have_ints(Py_ssize_t n) {
    if (n <= n_ints) return 0;
    PyObject **grown = PyMem_Realloc(ints, (size_t)n * sizeof *grown);
    if (!grown) { PyErr_NoMemory(); return -1; }
    ints = grown;
    for (; n_ints < n; n_ints++) {
        ints[n_ints] = PyLong_FromSsize_t(n_ints);
        if (!ints[n_ints]) return -1;
    }
    return 0;
}

/* mask_indices(mask): the indices of the nonzero bytes of ``mask`` (any readable buffer),
 * increasing, as a list: a seat's legal actions, read 8 bytes at a time (most are 0). */
static PyObject *py_mask_indices(PyObject *self, PyObject *arg) {
    Py_buffer in;
    if (PyObject_GetBuffer(arg, &in, PyBUF_SIMPLE) < 0) return NULL;
    if (have_ints(in.len) < 0) { PyBuffer_Release(&in); return NULL; }
    const unsigned char *bytes = (const unsigned char *)in.buf;
    Py_ssize_t n = in.len, count = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        if (word)
            for (int k = 0; k < 8; k++) count += bytes[i + k] != 0;
    }
    for (; i < n; i++) count += bytes[i] != 0;
    PyObject *out = PyList_New(count);
    if (!out) { PyBuffer_Release(&in); return NULL; }
    Py_ssize_t at = 0;
    for (i = 0; i < n && at < count; i++) {
        if (i % 8 == 0 && i + 8 <= n) {  /* skip a word of zeros at once */
            uint64_t word;
            memcpy(&word, bytes + i, 8);
            if (!word) { i += 7; continue; }
        }
        if (!bytes[i]) continue;
        Py_INCREF(ints[i]);
        PyList_SET_ITEM(out, at++, ints[i]);
    }
    PyBuffer_Release(&in);
    return out;
}

static PyMethodDef Methods[] = {
    {"setup", py_setup, METH_VARARGS,
     "setup(shapes, distinct): shapes[digit][rotation] = [(dx, dy)], distinct[digit] = "
     "its distinct rotations; once, before window_mask"},
    {"window_mask", py_window_mask, METH_VARARGS,
     "window_mask(out, tiles, digit, size): the legal placements of digit inside the "
     "size x size window into out (4 * size * size bytes); tiles = [(digit, rotation, x, "
     "y, level)], at least one"},
    {"mask_indices", py_mask_indices, METH_O,
     "mask_indices(mask): the indices of mask's nonzero bytes, increasing, as a list"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_nmbr9fast", "NMBR 9's research mask in C", -1, Methods
};

PyMODINIT_FUNC PyInit__nmbr9fast(void) { return PyModule_Create(&moddef); }
