/*
 * _nmbr9fast.c -- the research encoding's legal-placement mask, and NMBR 9's OpenSpiel
 * game (``Game``, the twin of ``encoding.ChanceEncoder``), in C (CPython extension, C11).
 *
 * The pure Python rules are the reference: ``window.legal_mask`` computes the same
 * mask from the rules' bitboards (tests/research/test_nmbr9_incremental.py checks the
 * two agree on random positions), and tests/research/test_nmbr9_compiled.py plays
 * ``Game`` and ``ChanceEncoder`` side by side. This module is optional (setup.py builds it when a compiler
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

/* ---- the OpenSpiel game ------------------------------------------------------ */
/*
 * Game: an exact twin of encoding.ChanceEncoder (chance nodes turning the cards, the
 * seats placing in seat order, each placement hidden from the others until the round
 * resolves, the mask, the observation raw and scaled, the result). The Python stays
 * the reference: tests/research/test_nmbr9_compiled.py plays both side by side.
 *
 * The state is small (a copy is a memcpy): per seat the tiles laid, in window
 * coordinates (every placement lies in the window), its score and whether it placed
 * this round (its pending tile is then its last). Occupancy and planes are rebuilt from
 * the tiles when needed. A seat's mask changes only when a card is turned, so it is
 * computed once a round and shared, refcounted, between copies.
 */
#define MAXSEATS 4
#define ROUNDS 20
#define HEADER 6
#define CHANCE (-1)
#define TERMINAL (-4)
#define MAX_OBS (HEADER + 10 + MAXSEATS + MAXSEATS * 2 * (MAXGRID - 2) * (MAXGRID - 2))

typedef struct {
    Py_ssize_t refs;  /* the games holding it */
    int count;        /* legal placements */
    uint64_t bits[];  /* 4 * size rows, as legal_bits */
} Mask;

typedef struct {
    uint8_t players, rounds, size, round;
    uint8_t turned;   /* this round's card is turned */
    uint8_t card;     /* its digit, once turned */
    uint8_t stuck;    /* a seat that must place has no placement in the window */
    uint8_t over;     /* all rounds played (the rules' is_over) */
    uint8_t left[10]; /* per digit the cards not turned yet (the removed ones among them) */
    uint8_t placed[MAXSEATS], ntiles[MAXSEATS];
    int16_t score[MAXSEATS];
    Tile tiles[MAXSEATS][ROUNDS];
    Mask *mask[MAXSEATS];  /* this round's, NULL until asked */
} N9;

static void mask_release(Mask **m) {
    if (*m && --(*m)->refs == 0) PyMem_Free(*m);
    *m = NULL;
}

static void release_masks(N9 *g) {
    for (int s = 0; s < MAXSEATS; s++) mask_release(&g->mask[s]);
}

static int in_round(const N9 *g) { return g->turned && !g->over; }

static int first_to_place(const N9 *g) {
    for (int s = 0; s < g->players; s++)
        if (!g->placed[s]) return s;
    return -1;
}

/* The mask of ``seat`` (in the round, not placed yet): computed once a round; NULL
 * with MemoryError. */
static Mask *seat_mask(N9 *g, int seat) {
    if (g->mask[seat]) return g->mask[seat];
    int size = g->size;
    Mask *m = PyMem_Malloc(sizeof(Mask) + (size_t)4 * size * sizeof(uint64_t));
    if (!m) { PyErr_NoMemory(); return NULL; }
    m->refs = 1;
    int digit = g->card;
    if (g->ntiles[seat]) {
        m->count = legal_bits(g->tiles[seat], g->ntiles[seat], digit, size, m->bits);
    } else {  /* the first tile: each distinct rotation at (0, 0), if it fits (Board.legal) */
        memset(m->bits, 0, (size_t)4 * size * sizeof(uint64_t));
        int half = size / 2;
        m->count = 0;
        for (int i = 0; i < NDISTINCT[digit]; i++) {
            int r = DISTINCT[digit][i];
            const Shape *s = &SHAPES[digit][r];
            if (half + s->w <= size && half + s->h <= size) {
                m->bits[r * size + half] |= 1ULL << half;
                m->count++;
            }
        }
    }
    g->mask[seat] = m;
    return m;
}

/* The first seat to place has no placement: the game cannot go on (ChanceEncoder's
 * _check_window). -1 with MemoryError. */
static int check_window(N9 *g) {
    if (!in_round(g)) return 0;
    Mask *m = seat_mask(g, first_to_place(g));
    if (!m) return -1;
    g->stuck = m->count == 0;
    return 0;
}

static int acting(const N9 *g) {
    if (g->over || g->stuck) return TERMINAL;
    if (!g->turned) return CHANCE;
    return first_to_place(g);
}

static int observation_size(int players, int size) {
    return HEADER + 10 + players + players * 2 * size * size;
}

/* The height under the square (x, y) of the window: 1 + the level of its top tile. */
static int height_at(const N9 *g, int seat, int x, int y) {
    for (int i = g->ntiles[seat] - 1; i >= 0; i--) {  /* the last laid lies on top */
        const Tile *t = &g->tiles[seat][i];
        int dx = x - t->x, dy = y - t->y;
        const Shape *s = &SHAPES[t->digit][t->rotation];
        if (dx < 0 || dy < 0 || dx >= s->w || dy >= s->h) continue;
        for (int q = 0; q < s->n; q++)
            if (s->dx[q] == dx && s->dy[q] == dy) return t->level + 1;
    }
    return 0;
}

/* Lay the acting seat's legal placement ``action``; the round resolves when the last
 * seat has placed. -1 with MemoryError (the placement made). */
static int place(N9 *g, int seat, int action) {
    int size = g->size, area = size * size, rotation = action / area;
    int x = action % area % size, y = action % area / size;
    const Shape *s = &SHAPES[g->card][rotation];
    int level = height_at(g, seat, x + s->dx[0], y + s->dy[0]);
    Tile *t = &g->tiles[seat][g->ntiles[seat]++];
    t->digit = g->card;
    t->rotation = (uint8_t)rotation;
    t->level = (uint8_t)level;
    t->x = (int8_t)x;
    t->y = (int8_t)y;
    g->score[seat] = (int16_t)(g->score[seat] + g->card * level);
    g->placed[seat] = 1;
    mask_release(&g->mask[seat]);
    if (first_to_place(g) >= 0) return check_window(g);
    g->round++;
    g->turned = 0;
    memset(g->placed, 0, sizeof g->placed);
    release_masks(g);
    if (g->round >= g->rounds) g->over = 1;
    return 0;
}

/* The score of seat ``s`` as ``viewer`` (-1: nobody) sees it: another seat's pending
 * placement not counted. */
static int seen_score(const N9 *g, int s, int viewer) {
    int score = g->score[s];
    if (g->placed[s] && s != viewer) {
        const Tile *t = &g->tiles[s][g->ntiles[s] - 1];
        score -= t->digit * t->level;
    }
    return score;
}

/* ChanceEncoder.observe(viewer) (viewer -1: public_observe) into ``o``. */
static void observe_raw(const N9 *g, int viewer, int16_t *o) {
    int n = g->players, size = g->size, area = size * size, seat = viewer < 0 ? 0 : viewer;
    memset(o, 0, (size_t)observation_size(n, size) * sizeof *o);
    o[0] = (int16_t)n;
    o[1] = g->round;
    o[2] = g->rounds;
    o[3] = (int16_t)(g->turned ? g->card : -1);  /* turned is 0 once over */
    o[4] = (int16_t)(viewer >= 0 && in_round(g) && !g->placed[viewer]);
    o[5] = g->over;
    for (int d = 0; d < 10; d++) o[HEADER + d] = g->left[d];
    int16_t *scores = o + HEADER + 10, *planes = scores + n;
    for (int k = 0; k < n; k++, planes += 2 * area) {
        int s = (seat + k) % n;
        scores[k] = (int16_t)seen_score(g, s, viewer);
        int shown = g->ntiles[s] - (g->placed[s] && s != viewer);  /* pending: hidden */
        for (int i = 0; i < shown; i++) {
            const Tile *t = &g->tiles[s][i];
            const Shape *sh = &SHAPES[t->digit][t->rotation];
            int16_t *at = planes + t->y * size + t->x;
            for (int q = 0; q < sh->n; q++) {
                int cell = sh->dy[q] * size + sh->dx[q];
                at[cell] = (int16_t)(t->level + 1);
                at[cell + area] = (int16_t)(t->digit + 1);
            }
        }
    }
}

/* ---- Python: the Game type ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    N9 g;
} GameObject;

static PyTypeObject GameType;

/* A C-contiguous buffer of ``count`` items of a format among ``formats`` (each one
 * character) and ``itemsize``; ValueError otherwise. */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *formats,
                      Py_ssize_t itemsize, Py_ssize_t count, const char *what, const char *type) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a %sC-contiguous %s array", what,
                     writable ? "writable " : "", type);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (f[0] == '\0' || f[1] != '\0' || !strchr(formats, f[0]) || view->itemsize != itemsize ||
        view->len != count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must be a %s array of %zd entries", what, type, count);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int game_init(GameObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "rounds", "size", NULL};
    int players, rounds, size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iii", names, &players, &rounds, &size)) return -1;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() has not been called");
        return -1;
    }
    if (players < 1 || players > MAXSEATS || rounds < 1 || rounds > ROUNDS || size < 7 ||
        size > MAXGRID - 2) {
        PyErr_SetString(PyExc_ValueError, "1 to 4 players, 1 to 20 rounds, a size of 7 to 62");
        return -1;
    }
    if (have_ints((Py_ssize_t)4 * size * size) < 0) return -1;
    N9 *g = &self->g;
    release_masks(g);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)players;
    g->rounds = (uint8_t)rounds;
    g->size = (uint8_t)size;
    for (int d = 0; d < 10; d++) g->left[d] = 2;
    return 0;
}

static void game_dealloc(GameObject *self) {
    release_masks(&self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* An int (anything with __index__) as a long; ``bad`` (out of every range) when it
 * overflows; -1 with ValueError when it is no int. */
static int read_long(PyObject *obj, long bad, long *out, const char *what) {
    PyObject *index = PyNumber_Index(obj);
    if (!index) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be an int, not %.50s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    *out = overflow ? bad : v;
    return 0;
}

static int read_seat(const N9 *g, PyObject *obj, int *seat) {
    long s;
    if (read_long(obj, -1, &s, "seat") < 0) return -1;
    if (s < 0 || s >= g->players) {
        PyErr_Format(PyExc_ValueError, "seat %ld: the game has %d seat(s)", s, g->players);
        return -1;
    }
    *seat = (int)s;
    return 0;
}

static PyObject *game_acting(GameObject *self, PyObject *unused) {
    return PyLong_FromLong(acting(&self->g));
}

static PyObject *game_is_over(GameObject *self, void *closure) {
    return PyBool_FromLong(self->g.over || self->g.stuck);
}

static PyObject *game_stuck(GameObject *self, void *closure) { return PyBool_FromLong(self->g.stuck); }

static PyObject *game_in_round(GameObject *self, void *closure) {
    return PyBool_FromLong(in_round(&self->g));
}

static PyObject *game_card(GameObject *self, void *closure) {
    return PyLong_FromLong(in_round(&self->g) ? self->g.card : -1);
}

static PyObject *game_chance_outcomes(GameObject *self, PyObject *unused) {
    const N9 *g = &self->g;
    if (acting(g) != CHANCE) return PyList_New(0);
    int total = 0, n = 0;
    for (int d = 0; d < 10; d++) {
        total += g->left[d];
        n += g->left[d] > 0;
    }
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int d = 0, at = 0; d < 10; d++) {
        if (!g->left[d]) continue;
        PyObject *pair = Py_BuildValue("(id)", d, (double)g->left[d] / (double)total);
        if (!pair) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, at++, pair);
    }
    return list;
}

static PyObject *game_apply_chance(GameObject *self, PyObject *arg) {
    N9 *g = &self->g;
    long digit;
    if (read_long(arg, -1, &digit, "a chance outcome") < 0) return NULL;
    if (acting(g) != CHANCE) {
        PyErr_SetString(PyExc_ValueError, "no chance node is due");
        return NULL;
    }
    if (digit < 0 || digit > 9 || !g->left[digit]) {
        PyErr_Format(PyExc_ValueError, "no card %ld is left to turn", digit);
        return NULL;
    }
    g->left[digit]--;
    g->card = (uint8_t)digit;
    g->turned = 1;
    release_masks(g);
    if (check_window(g) < 0) return NULL;
    Py_RETURN_NONE;
}

static int mask_has(const Mask *m, int size, long action) {
    long row = action / size, column = action % size;  /* row: rotation * size + y */
    return (int)(m->bits[row] >> column & 1);
}

static PyObject *game_apply(GameObject *self, PyObject *arg) {
    N9 *g = &self->g;
    long action, actions = 4L * g->size * g->size;
    if (read_long(arg, -1, &action, "an action") < 0) return NULL;
    int seat = acting(g);
    if (seat < 0) {
        PyErr_Format(PyExc_ValueError, "action %ld: no seat is to place", action);
        return NULL;
    }
    if (action < 0 || action >= actions) {
        PyErr_Format(PyExc_ValueError, "action %ld is outside 0..%ld", action, actions - 1);
        return NULL;
    }
    Mask *m = seat_mask(g, seat);
    if (!m) return NULL;
    if (!mask_has(m, g->size, action)) {
        PyErr_Format(PyExc_ValueError, "action %ld is not a legal placement of the %d in the window",
                     action, g->card);
        return NULL;
    }
    if (place(g, seat, (int)action) < 0) return NULL;
    Py_RETURN_NONE;
}

/* The mask of ``seat`` if it has a placement to make this round, else NULL (an error
 * set only when ``*failed``). */
static Mask *mask_of(GameObject *self, int seat, int *failed) {
    N9 *g = &self->g;
    *failed = 0;
    if (!in_round(g) || g->placed[seat]) return NULL;
    Mask *m = seat_mask(g, seat);
    *failed = m == NULL;
    return m;
}

static PyObject *game_legal_actions(GameObject *self, PyObject *arg) {
    int seat, failed;
    if (read_seat(&self->g, arg, &seat) < 0) return NULL;
    Mask *m = mask_of(self, seat, &failed);
    if (failed) return NULL;
    PyObject *list = PyList_New(m ? m->count : 0);
    if (!list || !m) return list;
    int size = self->g.size;
    Py_ssize_t at = 0;
    for (int row = 0; row < 4 * size; row++)
        for (uint64_t b = m->bits[row]; b; b &= b - 1) {
            PyObject *v = ints[(Py_ssize_t)row * size + __builtin_ctzll(b)];
            Py_INCREF(v);
            PyList_SET_ITEM(list, at++, v);
        }
    return list;
}

static PyObject *game_mask(GameObject *self, PyObject *args) {
    PyObject *seat_obj, *out;
    int seat, failed, size = self->g.size;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out) || read_seat(&self->g, seat_obj, &seat) < 0)
        return NULL;
    Py_buffer view;
    if (get_buffer(out, &view, 1, "b", 1, 4L * size * size, "out", "int8") < 0) return NULL;
    Mask *m = mask_of(self, seat, &failed);
    if (failed) { PyBuffer_Release(&view); return NULL; }
    if (m) bits_to_bytes(m->bits, size, (char *)view.buf);
    else memset(view.buf, 0, (size_t)view.len);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *game_observe(GameObject *self, PyObject *args) {
    PyObject *seat_obj, *out;
    int seat;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out) || read_seat(&self->g, seat_obj, &seat) < 0)
        return NULL;
    Py_buffer view;
    if (get_buffer(out, &view, 1, "h", 2, observation_size(self->g.players, self->g.size), "out",
                   "int16") < 0)
        return NULL;
    observe_raw(&self->g, seat, (int16_t *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *game_public_observe(GameObject *self, PyObject *out) {
    Py_buffer view;
    if (get_buffer(out, &view, 1, "h", 2, observation_size(self->g.players, self->g.size), "out",
                   "int16") < 0)
        return NULL;
    observe_raw(&self->g, -1, (int16_t *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static int16_t scratch[MAX_OBS];  /* the raw observation to scale (the GIL is held) */

/* out = (raw - low) * factor in float32, eight at a time (the blocks of a known length
 * and the restrict pointers let -O2 vectorise them), then the rest. */
#define SCALE_LOOP(LOW)                                                         \
    int i = 0;                                                                  \
    for (; i + 8 <= n; i += 8)                                                  \
        for (int j = i; j < i + 8; j++) {                                       \
            float d = (float)raw[j] - (float)(LOW)[j];                           \
            out[j] = d * factor[j];                                             \
        }                                                                       \
    for (; i < n; i++) {                                                        \
        float d = (float)raw[i] - (float)(LOW)[i];                               \
        out[i] = d * factor[i];                                                 \
    }

static void scale32(const int16_t *restrict raw, const float *restrict low,
                    const float *restrict factor, float *restrict out, int n) {
    SCALE_LOOP(low)
}

static void scale16(const int16_t *restrict raw, const int16_t *restrict low,
                    const float *restrict factor, float *restrict out, int n) {
    SCALE_LOOP(low)
}

/* observe_scaled(seat, out, low, factor): as Scaler, (raw - low) * factor in float32,
 * the difference rounded before the product (no fused multiply-add). ``low`` is int16
 * or float32: an int16 bound is exact in float32, so either gives the same bits. */
static PyObject *game_observe_scaled(GameObject *self, PyObject *args) {
    PyObject *seat_obj, *out, *low, *factor;
    int seat, n = observation_size(self->g.players, self->g.size);
    if (!PyArg_ParseTuple(args, "OOOO", &seat_obj, &out, &low, &factor) ||
        read_seat(&self->g, seat_obj, &seat) < 0)
        return NULL;
    Py_buffer ov, lv, fv;
    if (get_buffer(out, &ov, 1, "f", 4, n, "out", "float32") < 0) return NULL;
    int low16 = 0;
    if (PyObject_GetBuffer(low, &lv, PyBUF_FORMAT) == 0) {  /* which of the two it is */
        low16 = lv.itemsize == 2;
        PyBuffer_Release(&lv);
    } else {
        PyErr_Clear();
    }
    if (get_buffer(low, &lv, 0, low16 ? "h" : "f", low16 ? 2 : 4, n, "low", "int16 or float32") < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    if (get_buffer(factor, &fv, 0, "f", 4, n, "factor", "float32") < 0) {
        PyBuffer_Release(&lv);
        PyBuffer_Release(&ov);
        return NULL;
    }
    observe_raw(&self->g, seat, scratch);
    if (low16)
        scale16(scratch, lv.buf, fv.buf, ov.buf, n);
    else
        scale32(scratch, lv.buf, fv.buf, ov.buf, n);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&lv);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

static PyObject *game_scores(GameObject *self, PyObject *unused) {
    const N9 *g = &self->g;
    PyObject *list = PyList_New(g->players);
    for (int s = 0; list && s < g->players; s++) {
        PyObject *v = PyLong_FromLong(g->score[s]);
        if (!v) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

/* Encoder.ranks: 1 + the seats with more points (equal totals share). */
static PyObject *game_ranks(GameObject *self, PyObject *unused) {
    const N9 *g = &self->g;
    PyObject *list = PyList_New(g->players);
    for (int s = 0; list && s < g->players; s++) {
        int rank = 1;
        for (int t = 0; t < g->players; t++) rank += g->score[t] > g->score[s];
        PyObject *v = PyLong_FromLong(rank);
        if (!v) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static PyObject *game_reward_scores(GameObject *self, PyObject *unused) {
    const N9 *g = &self->g;
    PyObject *list = PyList_New(g->players);
    for (int s = 0; list && s < g->players; s++) {
        PyObject *v = PyFloat_FromDouble((double)g->score[s]);
        if (!v) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static PyObject *game_solo_score(GameObject *self, PyObject *unused) {
    return PyFloat_FromDouble((double)self->g.score[0]);
}

static PyObject *game_copy(GameObject *self, PyObject *unused) {
    GameObject *new = PyObject_New(GameObject, Py_TYPE(self));
    if (!new) return NULL;
    memcpy(&new->g, &self->g, sizeof new->g);
    for (int s = 0; s < MAXSEATS; s++)  /* masks are never changed, only replaced */
        if (new->g.mask[s]) new->g.mask[s]->refs++;
    return (PyObject *)new;
}

static PyObject *game_deepcopy(GameObject *self, PyObject *memo) { return game_copy(self, NULL); }

static PyMethodDef game_methods[] = {
    {"acting", (PyCFunction)game_acting, METH_NOARGS,
     "The first seat to place, CHANCE (-1) before the round's card is turned, TERMINAL (-4)."},
    {"chance_outcomes", (PyCFunction)game_chance_outcomes, METH_NOARGS,
     "The digits of the cards not turned, with their probabilities ([] at other nodes)."},
    {"apply_chance", (PyCFunction)game_apply_chance, METH_O,
     "Turn a card of this digit (ValueError if not a chance node or none is left)."},
    {"apply", (PyCFunction)game_apply, METH_O,
     "Place for the acting seat (ValueError if not legal; nothing changes)."},
    {"legal_actions", (PyCFunction)game_legal_actions, METH_O,
     "legal_actions(seat): its legal placements this round, increasing (a new list)."},
    {"mask", (PyCFunction)game_mask, METH_VARARGS, "mask(seat, out): its int8 mask into out."},
    {"observe", (PyCFunction)game_observe, METH_VARARGS,
     "observe(seat, out): ChanceEncoder.observe(seat), int16, into out."},
    {"observe_scaled", (PyCFunction)game_observe_scaled, METH_VARARGS,
     "observe_scaled(seat, out, low, factor): (raw - low) * factor as Scaler (float32)."},
    {"public_observe", (PyCFunction)game_public_observe, METH_O,
     "public_observe(out): ChanceEncoder.public_observe(), int16, into out."},
    {"scores", (PyCFunction)game_scores, METH_NOARGS, "Per seat the points on its board now."},
    {"ranks", (PyCFunction)game_ranks, METH_NOARGS, "Per seat 1 + the seats with more points."},
    {"reward_scores", (PyCFunction)game_reward_scores, METH_NOARGS, "The scores as floats."},
    {"solo_score", (PyCFunction)game_solo_score, METH_NOARGS, "Seat 0's points (a float)."},
    {"copy", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"__copy__", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"__deepcopy__", (PyCFunction)game_deepcopy, METH_O, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"is_over", (getter)game_is_over, NULL, "All rounds played, or stuck.", NULL},
    {"stuck", (getter)game_stuck, NULL, "A seat that must place has no placement in the window.", NULL},
    {"in_round", (getter)game_in_round, NULL, "This round's card is turned, rounds remain.", NULL},
    {"card", (getter)game_card, NULL, "This round's digit once turned, -1 otherwise.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tabletop.games.nmbr9._nmbr9fast.Game",
    .tp_doc = "Game(players, rounds, size): a game before its first card, as ChanceEncoder.",
    .tp_basicsize = sizeof(GameObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_dealloc = (destructor)game_dealloc,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

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
    PyModuleDef_HEAD_INIT, "_nmbr9fast", "NMBR 9's research mask and OpenSpiel game in C", -1, Methods
};

PyMODINIT_FUNC PyInit__nmbr9fast(void) {
    if (PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "CHANCE", CHANCE) < 0 ||
        PyModule_AddIntConstant(m, "TERMINAL", TERMINAL) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
