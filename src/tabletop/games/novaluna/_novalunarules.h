/*
 * _novalunarules.h -- Nova Luna's rules in C, shared by two CPython extensions:
 * _novalunafast.c (the OpenSpiel game, with chance nodes and observations) and
 * bots/_mctskernel.c (the compiled search of the mcts bot).
 *
 * The state is one flat struct (a copy is a memcpy): per seat a display of at most
 * MAXT tiles in the order laid, each with its cell, its open tasks and its same-colour
 * group, and the display's frontier (the empty cells next to a tile) sorted in the
 * encoding's grid order. Lookups scan these short arrays: a display holds at most 45
 * tiles (see encoding.py's docstring), a scan is cheaper than keeping a grid per seat.
 *
 * Cells: key = ((y + 64) << 7) | (x + 64); the neighbours are key +- 1 and key +- 128,
 * and increasing keys are the grid's order (row y, then column x). Tile data comes
 * from the rules' tiles.json through load_tiles(); nothing is retyped. The pure Python
 * rules stay the reference: tests play both side by side.
 *
 * Every function is static: each extension that includes this file has its own copy
 * (and its own tile tables, filled by its own setup()).
 */
#ifndef NOVALUNARULES_H
#define NOVALUNARULES_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NTILES 69          /* tile ids 1..68; index 0 unused */
#define LAST_TILE 68
#define SPACES 12
#define MAXT 48            /* tiles a display can hold here (45 is the most possible) */
#define MAXF (2 * MAXT + 2)
#define DISCS 21
#define PHASE1_DISCS 8
#define KOFF 64

/* ---- tiles ------------------------------------------------------------------ */

static int tiles_ready = 0;
static uint8_t T_COLOR[NTILES], T_COST[NTILES], T_NTASK[NTILES];
static uint8_t T_NEED[NTILES][3][4]; /* per task, the tiles of each colour it needs */

static int key_of(int x, int y) { return ((y + KOFF) << 7) | (x + KOFF); }
static int key_x(int key) { return (key & 127) - KOFF; }
static int key_y(int key) { return (key >> 7) - KOFF; }


/* ---- the state ------------------------------------------------------------- */

typedef struct {
    uint16_t key[MAXT];   /* cell of each tile, in the order laid */
    uint8_t tile[MAXT];
    uint8_t open[MAXT];   /* bit mask of its uncovered tasks */
    uint8_t grp[MAXT];    /* its same-colour group: the slot of one member */
    uint8_t gsize[MAXT];  /* a group's size, at the group's slot */
    uint16_t front[MAXF]; /* the frontier, increasing */
    uint8_t n, nf, covered;
} Display;

typedef struct {
    /* the chance nodes (ChanceEncoder) */
    uint8_t players, supply0, solo, stack_set, started;
    uint8_t stack[4];
    uint8_t draws[11];   /* tiles the chance nodes drew for the pending action/set-up */
    uint8_t ndraws, to_draw;
    int32_t pending;     /* the action waiting for its draws, -1 for none */
    /* the rules (State) */
    uint8_t wheel[SPACES];
    uint8_t meeple, on_wheel, drawn, current, refilled, phase, over, last_disc;
    uint64_t gone[2];    /* bit t - 1: tile t has left the pile */
    uint8_t supply[4];
    int16_t time[4], stamp[4], next_stamp, turn, phase1_score, phase1_discs;
    Display d[4];
} NL;

/* Where the tiles a refill draws come from: the chance nodes' draws in order, or (a
 * trial that only counts them) any tile. */
typedef struct {
    const uint8_t *tiles;
    int n, i, counting;
} Source;


static void set_gone(uint64_t *mask, int tile) { mask[(tile - 1) >> 6] |= (uint64_t)1 << ((tile - 1) & 63); }

/* ---- the display ------------------------------------------------------------ */

static int find_tile(const Display *d, int key) {
    for (int i = 0; i < d->n; i++)
        if (d->key[i] == key) return i;
    return -1;
}

static int front_pos(const Display *d, int key) {
    int lo = 0, hi = d->nf;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (d->front[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int in_front(const Display *d, int key) {
    int p = front_pos(d, key);
    return p < d->nf && d->front[p] == key;
}

static void front_add(Display *d, int key) {
    int p = front_pos(d, key);
    if (p < d->nf && d->front[p] == key) return;
    if (d->nf >= MAXF) return; /* never: a display of MAXT tiles has 2 * MAXT + 1 */
    memmove(&d->front[p + 1], &d->front[p], (size_t)(d->nf - p) * sizeof d->front[0]);
    d->front[p] = (uint16_t)key;
    d->nf++;
}

static void front_remove(Display *d, int key) {
    int p = front_pos(d, key);
    if (p >= d->nf || d->front[p] != key) return;
    memmove(&d->front[p], &d->front[p + 1], (size_t)(d->nf - p - 1) * sizeof d->front[0]);
    d->nf--;
}

static void display_init(Display *d) {
    memset(d, 0, sizeof *d);
    d->front[0] = (uint16_t)key_of(0, 0);
    d->nf = 1;
}

static int display_cost(const Display *d) {
    int cost = 0;
    for (int i = 0; i < d->n; i++) cost += T_COST[d->tile[i]];
    return cost;
}

/* A fulfilled task: sorted as the rules sort them, by (cell_key, task index), and
 * cell_key(x, y) orders by x, then y. */
typedef struct { int order, slot, task; } Found;

/* Per colour, the tiles that count for a task of the tile in slot u: the sizes of the
 * same-colour groups touching it, less the tile itself (Display.count). */
static void task_counts(const Display *d, int u, int counts[4]) {
    int seen[4], nseen = 0, key = d->key[u];
    const int nb[4] = {key + 1, key - 1, key + 128, key - 128};
    counts[0] = counts[1] = counts[2] = counts[3] = 0;
    for (int k = 0; k < 4; k++) {
        int t = find_tile(d, nb[k]);
        if (t < 0) continue;
        int g = d->grp[t], dup = 0;
        for (int j = 0; j < nseen; j++) dup |= seen[j] == g;
        if (dup) continue;
        seen[nseen++] = g;
        counts[T_COLOR[d->tile[t]]] += d->gsize[g];
    }
    int own = T_COLOR[d->tile[u]];
    if (counts[own]) counts[own]--; /* the tile's own group holds the tile itself */
}

static int fulfilled_tasks(const Display *d, int u, Found *found, int nfound) {
    int counts[4], key = d->key[u], tile = d->tile[u];
    task_counts(d, u, counts);
    for (int i = 0; i < T_NTASK[tile]; i++) {
        if (!(d->open[u] >> i & 1)) continue;
        const uint8_t *need = T_NEED[tile][i];
        if (counts[0] >= need[0] && counts[1] >= need[1] && counts[2] >= need[2] &&
            counts[3] >= need[3]) {
            found[nfound].order = (((key_x(key) + KOFF) << 7 | (key_y(key) + KOFF)) << 2) | i;
            found[nfound].slot = u;
            found[nfound].task = i;
            nfound++;
        }
    }
    return nfound;
}

/* Lay ``tile`` on the frontier cell ``key``; the tasks it fulfils go to ``found``,
 * sorted (at most 3 per tile). Display.lay: before a placement no open task is
 * fulfilled (each is covered when it becomes so, or the game ends), and counts only
 * grow, so only the new tile and the tiles touching its grown group can gain. */
static int lay(Display *d, int tile, int key, Found *found) {
    int s = d->n++, color = T_COLOR[tile];
    d->key[s] = (uint16_t)key;
    d->tile[s] = (uint8_t)tile;
    d->open[s] = (uint8_t)((1 << T_NTASK[tile]) - 1);
    d->grp[s] = (uint8_t)s;
    d->gsize[s] = 1;
    front_remove(d, key);
    const int nb[4] = {key + 1, key - 1, key + 128, key - 128};
    int label = s;
    for (int k = 0; k < 4; k++) {
        int t = find_tile(d, nb[k]);
        if (t < 0 || t == s) {
            if (t < 0) front_add(d, nb[k]);
            continue;
        }
        if (T_COLOR[d->tile[t]] != color || d->grp[t] == label) continue;
        int from = label, into = d->grp[t];
        for (int i = 0; i < d->n; i++)
            if (d->grp[i] == from) d->grp[i] = (uint8_t)into;
        d->gsize[into] = (uint8_t)(d->gsize[into] + d->gsize[from]);
        label = into;
    }
    /* the candidates: the new tile and every tile with open tasks touching its group */
    uint64_t cand = (uint64_t)1 << s;
    for (int m = 0; m < d->n; m++) {
        if (d->grp[m] != label) continue;
        int mk = d->key[m];
        const int mn[4] = {mk + 1, mk - 1, mk + 128, mk - 128};
        for (int k = 0; k < 4; k++) {
            int t = find_tile(d, mn[k]);
            if (t >= 0 && d->open[t]) cand |= (uint64_t)1 << t;
        }
    }
    int nfound = 0;
    for (int u = 0; u < d->n; u++)
        if ((cand >> u & 1) && d->open[u]) nfound = fulfilled_tasks(d, u, found, nfound);
    for (int i = 1; i < nfound; i++) { /* insertion sort: a handful */
        Found f = found[i];
        int j = i - 1;
        while (j >= 0 && found[j].order > f.order) { found[j + 1] = found[j]; j--; }
        found[j + 1] = f;
    }
    return nfound;
}

/* ---- the rules -------------------------------------------------------------- */

static int takeable(const NL *g, int *spaces) {
    int n = 0;
    for (int k = 1; k < SPACES && n < 3; k++) {
        int space = (g->meeple + k) % SPACES;
        if (g->wheel[space]) spaces[n++] = space;
    }
    return n;
}

static int can_refill(const NL *g) {
    return !g->over && !g->solo && !g->refilled && g->on_wheel >= 1 && g->on_wheel <= 2 &&
           g->drawn < LAST_TILE;
}

static int can_end_phase(const NL *g) {
    return !g->over && g->solo && g->phase == 1 && g->d[0].covered >= PHASE1_DISCS;
}

/* Fill every empty space but the meeple's, clockwise from the meeple. */
static void refill(NL *g, Source *src) {
    for (int k = 1; k < SPACES; k++) {
        int space = (g->meeple + k) % SPACES;
        if (g->wheel[space]) continue;
        if (g->drawn >= LAST_TILE) break;
        int tile;
        if (src->counting) {
            tile = 1;
        } else {
            if (src->i >= src->n) break; /* never: the draws were counted by a trial */
            tile = src->tiles[src->i];
            set_gone(g->gone, tile);
        }
        src->i++;
        g->wheel[space] = (uint8_t)tile;
        g->drawn++;
        g->on_wheel++;
    }
}

static void finish(NL *g) {
    g->over = 1;
    if (g->solo && g->phase == 1) { /* all 21 discs placed in phase 1 */
        g->phase1_discs = g->d[0].covered;
        g->phase1_score = (int16_t)display_cost(&g->d[0]);
    }
}

static void end_phase1(NL *g, Source *src) {
    const Display *d = &g->d[0];
    int missing = d->covered < PHASE1_DISCS ? PHASE1_DISCS - d->covered : 0;
    g->phase1_discs = d->covered;
    g->phase1_score = (int16_t)(display_cost(d) + 10 * missing);
    g->phase = 2;
    refill(g, src);
    g->refilled = 1;
}

static void start_turn(NL *g, Source *src) {
    g->refilled = 0;
    if (g->solo) {
        if (g->on_wheel == 0) {
            if (g->phase == 1) end_phase1(g, src); else finish(g);
        }
        return;
    }
    int seat = 0;
    for (int s = 1; s < g->players; s++)
        if (g->time[s] < g->time[seat] || (g->time[s] == g->time[seat] && g->stamp[s] > g->stamp[seat]))
            seat = s;
    g->current = (uint8_t)seat;
    if (g->on_wheel == 0) {
        if (g->drawn >= LAST_TILE) {
            finish(g);
        } else {
            refill(g, src);
            g->refilled = 1;
        }
    }
}

static void place(NL *g, int space, int key, Source *src) {
    int seat = g->current, tile = g->wheel[space];
    Display *d = &g->d[seat];
    Found found[3 * MAXT];
    g->wheel[space] = 0;
    g->on_wheel--;
    g->meeple = (uint8_t)space;
    int nfound = lay(d, tile, key, found);
    if (!g->solo) {
        g->time[seat] = (int16_t)(g->time[seat] + T_COST[tile]);
        g->stamp[seat] = g->next_stamp++;
    }
    int left = g->supply[seat], cover = nfound < left ? nfound : left;
    for (int i = 0; i < cover; i++) {
        d->open[found[i].slot] &= (uint8_t)~(1 << found[i].task);
        d->covered++;
    }
    g->supply[seat] = (uint8_t)(left - cover);
    g->turn++;
    if (g->supply[seat] == 0) {
        g->last_disc = 1;
        finish(g);
    } else {
        start_turn(g, src);
    }
}





static int turn_place(const NL *g, int seat) {
    int place = 0;
    for (int s = 0; s < g->players; s++)
        if (g->time[s] < g->time[seat] || (g->time[s] == g->time[seat] && g->stamp[s] > g->stamp[seat]))
            place++;
    return place;
}

/* ---- tiles from Python ------------------------------------------------------- */

/* Item i of seq, an int from lo to hi; -1 with a ValueError naming ``what`` if not. */
static int read_ranged(PyObject *seq, Py_ssize_t i, long lo, long hi, const char *what, long *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_int(PyObject *seq, Py_ssize_t i, long lo, long hi, long *out) {
    return read_ranged(seq, i, lo, hi, "tile data", out);
}

static int read_tasks(PyObject *tasks, int tile) {
    Py_ssize_t n = PySequence_Size(tasks);
    if (n < 0) return -1;
    if (n > 3) {
        PyErr_SetString(PyExc_ValueError, "a tile has at most 3 tasks");
        return -1;
    }
    T_NTASK[tile] = (uint8_t)n;
    memset(T_NEED[tile], 0, sizeof T_NEED[tile]);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *task = PySequence_GetItem(tasks, i);
        if (!task) return -1;
        Py_ssize_t m = PySequence_Size(task);
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *pair = PySequence_GetItem(task, j);
            long c, need;
            int bad = !pair || PySequence_Size(pair) != 2 || read_int(pair, 0, 0, 3, &c) < 0 ||
                      read_int(pair, 1, 0, 255, &need) < 0;
            Py_XDECREF(pair);
            if (bad) {
                Py_DECREF(task);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a task is (colour, need) pairs");
                return -1;
            }
            T_NEED[tile][i][c] = (uint8_t)need;
        }
        Py_DECREF(task);
        if (m < 0) return -1;
    }
    return 0;
}

/* The rules' TILE_COLOR, TILE_COST, TILE_TASKS into the tables; -1 with an exception
 * set when they are not 69 entries each (index 0 unused) or out of range. */
static int load_tiles(PyObject *colors, PyObject *costs, PyObject *tasks) {
    if (PySequence_Size(colors) != NTILES || PySequence_Size(costs) != NTILES ||
        PySequence_Size(tasks) != NTILES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "69 entries each (index 0 unused)");
        return -1;
    }
    tiles_ready = 0;
    for (int t = 1; t < NTILES; t++) {
        long color, cost;
        if (read_int(colors, t, 0, 3, &color) < 0 || read_int(costs, t, 0, 100, &cost) < 0) return -1;
        T_COLOR[t] = (uint8_t)color;
        T_COST[t] = (uint8_t)cost;
        PyObject *item = PySequence_GetItem(tasks, t);
        if (!item) return -1;
        int bad = read_tasks(item, t);
        Py_DECREF(item);
        if (bad < 0) return -1;
    }
    return 0;
}

#endif
