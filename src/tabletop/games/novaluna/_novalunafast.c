/*
 * _novalunafast.c -- Nova Luna's OpenSpiel game in C (CPython extension, C11).
 *
 * An exact twin of the hot methods of ``chance.ChanceEncoder`` (which wraps
 * ``encoding.Encoder``, which wraps the rules' ``State`` and ``Display``): the chance
 * nodes (start stack, every tile drawn), the pending action that waits for its draws,
 * the legal actions, the mask, the observation (raw, scaled, as a list) and the result.
 * The pure Python stays the reference: tests/research/test_novaluna_compiled.py plays
 * both side by side and compares every node. The module is optional (setup.py builds it
 * when a compiler is there); without it the Python serves.
 *
 * The state and the rules (the display, a placement, a refill, the turn order) are in
 * _novalunarules.h, shared with the mcts bot's search (bots/_mctskernel.c); this file
 * adds the chance nodes, the observation and the Python type. Tile data comes from the
 * rules' tiles.json through setup(); nothing is retyped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "_novalunarules.h"

#define RADIUS 44
#define GRIDW (2 * RADIUS + 1)
#define CELLS (GRIDW * GRIDW)
#define REFILL_ACTION (3 * CELLS)
#define END_PHASE_ACTION (REFILL_ACTION + 1)
#define ACTIONS (END_PHASE_ACTION + 1)
#define CHANCE (-1)
#define TERMINAL (-4)

#define MAX_ROWS 45        /* display rows per seat in the observation */
#define HEADER 10
#define WHEEL (11 * 4)
#define SEAT 6
#define ROW 9
#define UNSEEN 68
#define MAX_OBS (HEADER + WHEEL + 4 * SEAT + 4 * MAX_ROWS * ROW + UNSEEN)

static uint8_t PERM[5][24][4];       /* itertools.permutations(range(n)), in its order */
static int NPERM[5];

/* The grid index of the encoding (row y, column x), -1 outside the grid. */
static int grid_index(int key) {
    int x = key_x(key), y = key_y(key);
    if (x < -RADIUS || x > RADIUS || y < -RADIUS || y > RADIUS) return -1;
    return (y + RADIUS) * GRIDW + x + RADIUS;
}

static int is_gone(const NL *g, int tile) { return (int)(g->gone[(tile - 1) >> 6] >> ((tile - 1) & 63) & 1); }

/* The space and cell of a legal placement ``action``; 0 if it is not one. */
static int legal_place(const NL *g, long action, int *space, int *key) {
    if (action < 0 || action >= REFILL_ACTION || g->over) return 0;
    if (g->d[g->current].n >= MAXT) return 0; /* never (45 at most): the arrays' bound */
    int spaces[3], n = takeable(g, spaces), choice = (int)(action / CELLS), cell = (int)(action % CELLS);
    if (choice >= n) return 0;
    int k = key_of(cell % GRIDW - RADIUS, cell / GRIDW - RADIUS);
    if (!in_front(&g->d[g->current], k)) return 0;
    *space = spaces[choice];
    *key = k;
    return 1;
}

/* Apply a legal action (checked by the caller), the draws coming from ``src``. */
static void apply_legal(NL *g, long action, int space, int key, Source *src) {
    if (action == REFILL_ACTION) {
        refill(g, src);
        g->refilled = 1;
    } else if (action == END_PHASE_ACTION) {
        end_phase1(g, src);
    } else {
        place(g, space, key, src);
    }
}

static int is_legal(const NL *g, long action, int *space, int *key) {
    if (action == REFILL_ACTION) return can_refill(g);
    if (action == END_PHASE_ACTION) return can_end_phase(g);
    return legal_place(g, action, space, key);
}

static int acting(const NL *g) {
    if (g->started && g->over && g->pending < 0) return TERMINAL;
    if (!g->started || g->ndraws < g->to_draw) return CHANCE;
    return g->current;
}

static int observation_size(int players) {
    return HEADER + WHEEL + players * SEAT + players * MAX_ROWS * ROW + UNSEEN;
}

/* Encoder.observe: zeros before set-up; the position before a pending action. */
static void observe_raw(const NL *g, int seat, int16_t *o) {
    int n = g->players;
    memset(o, 0, (size_t)observation_size(n) * sizeof *o);
    if (!g->started) return;
    o[0] = (int16_t)n;
    o[1] = (int16_t)(((g->current - seat) % n + n) % n);
    o[2] = (int16_t)(!g->over && g->current == seat);
    o[3] = g->phase;
    o[4] = (int16_t)can_refill(g);
    o[5] = (int16_t)can_end_phase(g);
    o[6] = (int16_t)(LAST_TILE - g->drawn);
    o[7] = g->on_wheel;
    o[8] = g->turn;
    o[9] = g->over;
    int16_t *w = o + HEADER, choice = 0;
    for (int k = 1; k < SPACES; k++, w += 4) {
        int tile = g->wheel[(g->meeple + k) % SPACES];
        if (!tile) continue;
        w[0] = (int16_t)tile;
        w[1] = (int16_t)(T_COLOR[tile] + 1);
        w[2] = T_COST[tile];
        if (!g->over && choice < 3) w[3] = ++choice;
    }
    int16_t *p = o + HEADER + WHEEL, *rows = p + n * SEAT;
    for (int k = 0; k < n; k++, p += SEAT, rows += MAX_ROWS * ROW) {
        int other = (seat + k) % n;
        const Display *d = &g->d[other];
        p[0] = g->supply[other];
        p[1] = d->covered;
        p[2] = g->time[other];
        p[3] = (int16_t)(g->time[other] - g->time[seat]);
        p[4] = (int16_t)turn_place(g, other);
        p[5] = d->n;
        int16_t *r = rows;
        for (int i = 0; i < d->n && i < MAX_ROWS; i++, r += ROW) {
            int tile = d->tile[i];
            r[0] = 1;
            r[1] = (int16_t)key_x(d->key[i]);
            r[2] = (int16_t)key_y(d->key[i]);
            r[3] = (int16_t)tile;
            r[4] = T_COLOR[tile];
            r[5] = T_COST[tile];
            for (int t = 0; t < T_NTASK[tile]; t++) r[6 + t] = (d->open[i] >> t & 1) ? 1 : 2;
        }
    }
    int16_t *u = rows;
    for (int tile = 1; tile <= LAST_TILE; tile++) u[tile - 1] = (int16_t)!is_gone(g, tile);
}

static void make_perms(void) {
    for (int n = 1; n <= 4; n++) {
        int fact = 1;
        for (int k = 2; k <= n; k++) fact *= k;
        NPERM[n] = fact;
        for (int i = 0; i < fact; i++) { /* the i-th permutation in lexicographic order */
            int left[4] = {0, 1, 2, 3}, rest = i, f = fact;
            for (int pos = 0; pos < n; pos++) {
                f /= n - pos;
                int idx = rest / f;
                rest %= f;
                PERM[n][i][pos] = (uint8_t)left[idx];
                for (int j = idx; j < 3; j++) left[j] = left[j + 1];
            }
        }
    }
}

/* setup(colors, costs, tasks): the rules' TILE_COLOR, TILE_COST, TILE_TASKS. */
static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *colors, *costs, *tasks;
    if (!PyArg_ParseTuple(args, "OOO", &colors, &costs, &tasks)) return NULL;
    if (load_tiles(colors, costs, tasks) < 0) return NULL;
    make_perms();
    tiles_ready = 1;
    Py_RETURN_NONE;
}

/* ---- Python: buffers ---------------------------------------------------------- */

/* A C-contiguous buffer of ``count`` items of format ``fmt``; ValueError otherwise. */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, char fmt, Py_ssize_t itemsize,
                      Py_ssize_t count, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a %sC-contiguous buffer", what,
                     writable ? "writable " : "");
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (f[0] != fmt || f[1] != '\0' || view->itemsize != itemsize || view->len != count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of format '%c'", what, count, fmt);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* ---- Python: the Game type ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    NL g;
} GameObject;

static PyTypeObject GameType;

static int game_init(GameObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "supply", NULL};
    int players, supply;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ii", names, &players, &supply)) return -1;
    if (!tiles_ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() has not been called");
        return -1;
    }
    if (players < 1 || players > 4 || supply < 1 || supply > DISCS) {
        PyErr_SetString(PyExc_ValueError, "1 to 4 players, a supply of 1 to 21 discs");
        return -1;
    }
    NL *g = &self->g;
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)players;
    g->supply0 = (uint8_t)supply;
    g->solo = players == 1;
    g->stack_set = g->solo;
    g->to_draw = 11;
    g->pending = -1;
    return 0;
}

static PyObject *game_acting(GameObject *self, PyObject *unused) {
    return PyLong_FromLong(acting(&self->g));
}

static PyObject *game_is_over(GameObject *self, void *closure) {
    const NL *g = &self->g;
    return PyBool_FromLong(g->started && g->over && g->pending < 0);
}

/* The tiles a draw may give: not yet on the wheel or in a display, not drawn for the
 * pending action. */
static int pool(const NL *g, uint8_t *tiles) {
    uint64_t taken[2] = {g->gone[0], g->gone[1]};
    for (int i = 0; i < g->ndraws; i++) set_gone(taken, g->draws[i]);
    int n = 0;
    for (int t = 1; t <= LAST_TILE; t++)
        if (!(taken[(t - 1) >> 6] >> ((t - 1) & 63) & 1)) tiles[n++] = (uint8_t)t;
    return n;
}

static PyObject *outcome_list(int *outcomes, int n) {
    PyObject *list = PyList_New(n);
    if (!list || n == 0) return list;
    PyObject *p = PyFloat_FromDouble(1.0 / n);
    if (!p) { Py_DECREF(list); return NULL; }
    for (int i = 0; i < n; i++) {
        PyObject *o = PyLong_FromLong(outcomes[i]);
        PyObject *pair = o ? PyTuple_New(2) : NULL;
        if (!pair) { Py_XDECREF(o); Py_DECREF(p); Py_DECREF(list); return NULL; }
        Py_INCREF(p);
        PyTuple_SET_ITEM(pair, 0, o);
        PyTuple_SET_ITEM(pair, 1, p);
        PyList_SET_ITEM(list, i, pair);
    }
    Py_DECREF(p);
    return list;
}

static PyObject *game_chance_outcomes(GameObject *self, PyObject *unused) {
    const NL *g = &self->g;
    int outcomes[NTILES], n = 0;
    if (acting(g) != CHANCE) return PyList_New(0);
    if (!g->stack_set) {
        n = NPERM[g->players];
        for (int i = 0; i < n; i++) outcomes[i] = i;
    } else {
        uint8_t tiles[LAST_TILE];
        n = pool(g, tiles);
        for (int i = 0; i < n; i++) outcomes[i] = tiles[i] - 1;
    }
    return outcome_list(outcomes, n);
}

static void deal(NL *g) {
    g->started = 1;
    g->wheel[0] = 0;
    for (int i = 0; i < 11; i++) {
        g->wheel[i + 1] = g->draws[i];
        set_gone(g->gone, g->draws[i]);
    }
    g->meeple = 0;
    g->on_wheel = 11;
    g->drawn = 11;
    int n = g->players;
    for (int s = 0; s < n; s++) {
        display_init(&g->d[s]);
        g->supply[s] = g->supply0;
    }
    for (int h = 0; h < n; h++) g->stamp[g->stack[h]] = (int16_t)h;
    g->next_stamp = (int16_t)n;
    g->phase = 1;
    g->current = 0;
    Source none = {NULL, 0, 0, 0};
    start_turn(g, &none);
}

static PyObject *game_apply_chance(GameObject *self, PyObject *arg) {
    NL *g = &self->g;
    long outcome = PyLong_AsLong(arg);
    if (outcome == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        outcome = -2; /* out of range either way */
    }
    if (acting(g) != CHANCE) {
        PyErr_SetString(PyExc_ValueError, "no chance node is due");
        return NULL;
    }
    if (!g->stack_set) {
        if (outcome < 0 || outcome >= NPERM[g->players]) {
            PyErr_Format(PyExc_ValueError, "start stack %ld is not an outcome", outcome);
            return NULL;
        }
        memcpy(g->stack, PERM[g->players][outcome], 4);
        g->stack_set = 1;
        Py_RETURN_NONE;
    }
    uint8_t tiles[LAST_TILE];
    int n = pool(g, tiles), ok = 0;
    for (int i = 0; i < n; i++) ok |= tiles[i] == outcome + 1;
    if (outcome < 0 || outcome >= LAST_TILE || !ok) {
        PyErr_Format(PyExc_ValueError, "tile %ld is not in the pile", outcome + 1);
        return NULL;
    }
    g->draws[g->ndraws++] = (uint8_t)(outcome + 1);
    if (g->ndraws < g->to_draw) Py_RETURN_NONE;
    if (!g->started) {
        deal(g);
    } else {
        int space = 0, key = 0;
        is_legal(g, g->pending, &space, &key);
        Source src = {g->draws, g->ndraws, 0, 0};
        apply_legal(g, g->pending, space, key, &src);
    }
    g->ndraws = g->to_draw = 0;
    g->pending = -1;
    Py_RETURN_NONE;
}

static PyObject *game_apply(GameObject *self, PyObject *arg) {
    NL *g = &self->g;
    long action = PyLong_AsLong(arg);
    if (action == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        action = -2; /* out of range either way */
    }
    int space = 0, key = 0;
    if (acting(g) < 0) {
        PyErr_Format(PyExc_ValueError, "action %ld: no seat is to act", action);
        return NULL;
    }
    if (!is_legal(g, action, &space, &key)) {
        PyErr_Format(PyExc_ValueError, "action %ld is not legal", action);
        return NULL;
    }
    if (action >= REFILL_ACTION || g->on_wheel <= 1) { /* it may draw: count by a trial */
        NL trial = *g;
        Source count = {NULL, 0, 0, 1};
        apply_legal(&trial, action, space, key, &count);
        if (count.i) {
            g->pending = (int32_t)action;
            g->to_draw = (uint8_t)count.i;
            g->ndraws = 0;
            Py_RETURN_NONE;
        }
    }
    Source none = {NULL, 0, 0, 0};
    apply_legal(g, action, space, key, &none);
    Py_RETURN_NONE;
}

static PyObject *game_legal_actions(GameObject *self, PyObject *unused) {
    const NL *g = &self->g;
    if (acting(g) < 0) return PyList_New(0);
    const Display *d = &g->d[g->current];
    int spaces[3], nt = takeable(g, spaces), cells[MAXF], nc = 0;
    for (int i = 0; i < d->nf; i++) {
        int gi = grid_index(d->front[i]);
        if (gi >= 0) cells[nc++] = gi;
    }
    int refill_ok = can_refill(g), end_ok = can_end_phase(g);
    PyObject *list = PyList_New(nt * nc + refill_ok + end_ok);
    if (!list) return NULL;
    Py_ssize_t at = 0;
    for (int c = 0; c < nt; c++)
        for (int i = 0; i < nc; i++) {
            PyObject *v = PyLong_FromLong(c * CELLS + cells[i]);
            if (!v) { Py_DECREF(list); return NULL; }
            PyList_SET_ITEM(list, at++, v);
        }
    long extra[2] = {REFILL_ACTION, END_PHASE_ACTION};
    int ok[2] = {refill_ok, end_ok};
    for (int k = 0; k < 2; k++) {
        if (!ok[k]) continue;
        PyObject *v = PyLong_FromLong(extra[k]);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, at++, v);
    }
    return list;
}

static int read_seat(const NL *g, PyObject *obj, int *seat) {
    long s = PyLong_AsLong(obj);
    if (s == -1 && PyErr_Occurred()) return -1;
    if (s < 0 || s >= g->players) {
        PyErr_Format(PyExc_ValueError, "seat %ld: the game has %d seat(s)", s, g->players);
        return -1;
    }
    *seat = (int)s;
    return 0;
}

static PyObject *game_observe(GameObject *self, PyObject *args) {
    PyObject *seat_obj, *out;
    int seat;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out) || read_seat(&self->g, seat_obj, &seat) < 0)
        return NULL;
    Py_buffer view;
    if (get_buffer(out, &view, 1, 'h', 2, observation_size(self->g.players), "out") < 0) return NULL;
    observe_raw(&self->g, seat, (int16_t *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* The scaled observation into ``out`` as Scaler does it: float32 arithmetic, the
 * difference rounded before the product (no fused multiply-add, see setup.py). */
static void scale(const int16_t *raw, const float *low, const float *factor, float *out, int n) {
    for (int i = 0; i < n; i++) {
        float d = (float)raw[i] - low[i];
        out[i] = d * factor[i];
    }
}

static int read_scaler(GameObject *self, PyObject *low, PyObject *factor, Py_buffer *lv, Py_buffer *fv) {
    int size = observation_size(self->g.players);
    if (get_buffer(low, lv, 0, 'f', 4, size, "low") < 0) return -1;
    if (get_buffer(factor, fv, 0, 'f', 4, size, "factor") < 0) {
        PyBuffer_Release(lv);
        return -1;
    }
    return 0;
}

static PyObject *game_observe_scaled(GameObject *self, PyObject *args) {
    PyObject *seat_obj, *out, *low, *factor;
    int seat;
    if (!PyArg_ParseTuple(args, "OOOO", &seat_obj, &out, &low, &factor) ||
        read_seat(&self->g, seat_obj, &seat) < 0)
        return NULL;
    int size = observation_size(self->g.players);
    Py_buffer ov, lv, fv;
    if (get_buffer(out, &ov, 1, 'f', 4, size, "out") < 0) return NULL;
    if (read_scaler(self, low, factor, &lv, &fv) < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    int16_t raw[MAX_OBS];
    observe_raw(&self->g, seat, raw);
    scale(raw, (const float *)lv.buf, (const float *)fv.buf, (float *)ov.buf, size);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&lv);
    PyBuffer_Release(&fv);
    Py_RETURN_NONE;
}

static PyObject *game_mask(GameObject *self, PyObject *out) {
    const NL *g = &self->g;
    Py_buffer view;
    if (get_buffer(out, &view, 1, 'b', 1, ACTIONS, "out") < 0) return NULL;
    int8_t *m = (int8_t *)view.buf;
    memset(m, 0, ACTIONS);
    if (acting(g) >= 0) {
        const Display *d = &g->d[g->current];
        int spaces[3], nt = takeable(g, spaces);
        for (int i = 0; i < d->nf; i++) {
            int gi = grid_index(d->front[i]);
            if (gi >= 0)
                for (int c = 0; c < nt; c++) m[c * CELLS + gi] = 1;
        }
        if (can_refill(g)) m[REFILL_ACTION] = 1;
        if (can_end_phase(g)) m[END_PHASE_ACTION] = 1;
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static int check_over(const NL *g) {
    if (!g->started || !g->over) {
        PyErr_SetString(PyExc_ValueError, "the game is not over yet");
        return -1;
    }
    return 0;
}

static PyObject *game_ranks(GameObject *self, PyObject *unused) {
    const NL *g = &self->g;
    if (check_over(g) < 0) return NULL;
    if (g->solo) {
        PyErr_SetString(PyExc_ValueError, "a solo game has no ranking");
        return NULL;
    }
    int n = g->players, order[4];
    for (int s = 0; s < n; s++) order[s] = turn_place(g, s);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int s = 0; s < n; s++) { /* ranked by (discs left, place in the turn order) */
        int rank = 1;
        for (int t = 0; t < n; t++)
            if (g->supply[t] < g->supply[s] || (g->supply[t] == g->supply[s] && order[t] < order[s]))
                rank++;
        PyObject *v = PyLong_FromLong(rank);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static int solo_total(const NL *g) {
    const Display *d = &g->d[0];
    return g->phase1_score + display_cost(d) + 10 * (DISCS - d->covered);
}

static PyObject *game_reward_scores(GameObject *self, PyObject *unused) {
    const NL *g = &self->g;
    if (check_over(g) < 0) return NULL;
    int n = g->players;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int s = 0; s < n; s++) {
        double v = g->solo ? -(double)solo_total(g) : (double)g->d[s].covered;
        PyObject *f = PyFloat_FromDouble(v);
        if (!f) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, s, f);
    }
    return list;
}

static PyObject *game_solo_score(GameObject *self, PyObject *unused) {
    const NL *g = &self->g;
    if (check_over(g) < 0) return NULL;
    if (!g->solo) {
        PyErr_SetString(PyExc_ValueError, "only a solo game has a score of its own");
        return NULL;
    }
    return PyFloat_FromDouble((double)solo_total(g));
}

static PyObject *game_copy(GameObject *self, PyObject *unused) {
    GameObject *new = PyObject_New(GameObject, Py_TYPE(self));
    if (!new) return NULL;
    memcpy(&new->g, &self->g, sizeof new->g);
    return (PyObject *)new;
}

static PyObject *game_deepcopy(GameObject *self, PyObject *memo) { return game_copy(self, NULL); }

static PyMethodDef game_methods[] = {
    {"acting", (PyCFunction)game_acting, METH_NOARGS, "The seat to act, CHANCE (-1) or TERMINAL (-4)."},
    {"chance_outcomes", (PyCFunction)game_chance_outcomes, METH_NOARGS,
     "The due chance node's outcomes and probabilities ([] at other nodes)."},
    {"apply_chance", (PyCFunction)game_apply_chance, METH_O, "Apply a chance outcome (ValueError if not one)."},
    {"apply", (PyCFunction)game_apply, METH_O, "Apply the acting seat's action (ValueError if illegal)."},
    {"legal_actions", (PyCFunction)game_legal_actions, METH_NOARGS, "The acting seat's legal actions, increasing."},
    {"observe", (PyCFunction)game_observe, METH_VARARGS, "observe(seat, out): the raw int16 observation."},
    {"observe_scaled", (PyCFunction)game_observe_scaled, METH_VARARGS,
     "observe_scaled(seat, out, low, factor): the observation scaled as Scaler does (float32)."},
    {"mask", (PyCFunction)game_mask, METH_O, "mask(out): the acting seat's int8 mask (zeros at other nodes)."},
    {"ranks", (PyCFunction)game_ranks, METH_NOARGS, "Per seat its final rank (2-4 players)."},
    {"reward_scores", (PyCFunction)game_reward_scores, METH_NOARGS, "Encoder.reward_scores once over."},
    {"solo_score", (PyCFunction)game_solo_score, METH_NOARGS, "The solo game's final score."},
    {"copy", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"__copy__", (PyCFunction)game_copy, METH_NOARGS, "An independent copy."},
    {"__deepcopy__", (PyCFunction)game_deepcopy, METH_O, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"is_over", (getter)game_is_over, NULL, "Whether the game has ended (no action pending).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tabletop.games.novaluna._novalunafast.Game",
    .tp_doc = "Game(players, supply): an undealt game, as ChanceEncoder(setup) starts.",
    .tp_basicsize = sizeof(GameObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

static PyMethodDef module_methods[] = {
    {"setup", py_setup, METH_VARARGS, "setup(colors, costs, tasks): the tiles, per id 1..68."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_novalunafast", "Nova Luna's OpenSpiel game in C.", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__novalunafast(void) {
    if (PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "ACTIONS", ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "CHANCE", CHANCE) < 0 ||
        PyModule_AddIntConstant(m, "TERMINAL", TERMINAL) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
