/*
 * _mctskernel.c -- the mcts bot's search in C (CPython extension, C11).
 *
 * The same search as bots/mcts.py's MctsBot, only compiled: information-set MCTS
 * with determinisation (every iteration shuffles the unseen tiles into a pile of its
 * own), one shared tree keyed by moves, each seat maximising its own reward (max^n),
 * the best few placements of a node by immediate gain, a short cover-seeking rollout
 * below the tree, and a leaf that scores each seat by discs placed, time used and
 * tasks one tile short, turned into a reward by a logistic of the gap to the best
 * other seat. Python (mcts.py) turns the View into the tuples search() reads and picks
 * the move from the root's children; the rules are _novalunarules.h, which the pure
 * Python rules check (tests/novaluna/test_mcts_kernel.py).
 *
 * The search releases the GIL: a server's other games go on while a bot thinks.
 * With a seed and no time cap hit, a search is deterministic.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../_novalunarules.h"

#define MOVE_END (-1)     /* space of the move "end phase 1" */
#define MOVE_REFILL (-2)  /* space of the move "refill the wheel" */
#define MAX_CANDIDATES 16 /* placements a node keeps, at most */
#define MAX_PAIRS (3 * MAXF)
#define MAX_ITERATIONS 2000000

typedef struct {
    int8_t space; /* wheel space, or MOVE_END / MOVE_REFILL */
    uint16_t key; /* cell of a placement */
} Move;

typedef struct {
    int32_t first_child, next_sibling, visits;
    double value;   /* summed reward of the seat that chose the move leading here */
    Move move;      /* the move leading here */
    int8_t seat;    /* the seat to move */
    int8_t ncand;   /* -1 until the candidates are listed */
    Move cand[MAX_CANDIDATES + 3]; /* the root may add the analysed move */
} TNode;

typedef struct {
    int candidates, rollout_plies, rollout_samples;
    double exploration, time_weight, near_weight, sharpness, two_weight, more_weight, turn_weight;
} Params;

typedef struct {
    TNode *nodes;
    int n, cap;
} Tree;

/* ---- random numbers: splitmix64 (seeded from Python's random) ------------------ */

static uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int below(uint64_t *s, int n) { return (int)(next_random(s) % (uint64_t)n); }

/* ---- knowledge ----------------------------------------------------------------- */

static int same_move(Move a, Move b) { return a.space == b.space && a.key == b.key; }

/* Open tasks that miss exactly one tile; two and three or more in short[2], short[3]. */
static int near_tasks(const Display *d, int shorts[4]) {
    int near = 0;
    shorts[0] = shorts[1] = shorts[2] = shorts[3] = 0;
    for (int u = 0; u < d->n; u++) {
        if (!d->open[u]) continue;
        int counts[4], tile = d->tile[u];
        task_counts(d, u, counts);
        for (int i = 0; i < T_NTASK[tile]; i++) {
            if (!(d->open[u] >> i & 1)) continue;
            int missing = 0;
            for (int c = 0; c < 4; c++)
                if (T_NEED[tile][i][c] > counts[c]) missing += T_NEED[tile][i][c] - counts[c];
            near += missing == 1;
            shorts[missing < 3 ? missing : 3]++;
        }
    }
    return near;
}

/* 10 per task the placement fulfils, less the tile's cost, plus 0.5 per neighbour with
 * an open task (a cheap sign of future cover). */
static double gain(const Display *d, int tile, int key) {
    Display copy;
    Found found[3 * MAXT];
    memcpy(&copy, d, sizeof copy);
    int covers = lay(&copy, tile, key, found), near = 0;
    const int nb[4] = {key + 1, key - 1, key + 128, key - 128};
    for (int k = 0; k < 4; k++) {
        int t = find_tile(d, nb[k]);
        near += t >= 0 && d->open[t];
    }
    return 10.0 * covers - T_COST[tile] + 0.5 * near;
}

/* Every placement of the seat to move, spaces clockwise, cells in grid order. */
static int placements(const NL *g, Move *out) {
    int spaces[3], ns = takeable(g, spaces), n = 0;
    const Display *d = &g->d[g->current];
    if (d->n >= MAXT) return 0; /* never (45 at most): the arrays' bound */
    for (int i = 0; i < ns; i++)
        for (int f = 0; f < d->nf; f++) {
            out[n].space = (int8_t)spaces[i];
            out[n].key = d->front[f];
            n++;
        }
    return n;
}

/* Refill and end (when legal), then the best placements by gain, best first (ties in
 * the order listed). */
static int list_candidates(const NL *g, const Params *p, Move *out) {
    int n = 0;
    if (can_end_phase(g)) out[n++] = (Move){MOVE_END, 0};
    if (can_refill(g)) out[n++] = (Move){MOVE_REFILL, 0};
    Move pairs[MAX_PAIRS];
    double score[MAX_PAIRS];
    int np = placements(g, pairs), order[MAX_PAIRS];
    const Display *d = &g->d[g->current];
    for (int i = 0; i < np; i++) {
        score[i] = gain(d, g->wheel[pairs[i].space], pairs[i].key);
        int j = i - 1; /* insertion sort, stable: a few dozen */
        while (j >= 0 && score[order[j]] < score[i]) { order[j + 1] = order[j]; j--; }
        order[j + 1] = i;
    }
    for (int i = 0; i < np && i < p->candidates; i++) out[n++] = pairs[order[i]];
    return n;
}

static int move_is_legal(const NL *g, Move m) {
    if (m.space == MOVE_END) return can_end_phase(g);
    if (m.space == MOVE_REFILL) return can_refill(g);
    if (g->over) return 0;
    int spaces[3], ns = takeable(g, spaces), ok = 0;
    for (int i = 0; i < ns; i++) ok |= spaces[i] == m.space;
    return ok && in_front(&g->d[g->current], m.key);
}

static void apply_move(NL *g, Move m, Source *src) {
    if (m.space == MOVE_END) {
        end_phase1(g, src);
    } else if (m.space == MOVE_REFILL) {
        refill(g, src);
        g->refilled = 1;
    } else {
        place(g, m.space, m.key, src);
    }
}

/* ---- the leaf ------------------------------------------------------------------ */

static void rewards(const NL *g, const Params *p, double *out) {
    int n = g->players;
    if (g->over) {
        if (g->solo) {
            int total = g->phase1_score + display_cost(&g->d[0]) + 10 * (DISCS - g->d[0].covered);
            out[0] = 1.0 - (total < 300 ? total : 300) / 300.0;
            return;
        }
        int winner = 0, place0 = turn_place(g, 0);
        for (int s = 1; s < n; s++) { /* ranked by (discs left, place in the turn order) */
            int place = turn_place(g, s);
            if (g->supply[s] < g->supply[winner] ||
                (g->supply[s] == g->supply[winner] && place < place0)) {
                winner = s;
                place0 = place;
            }
        }
        for (int s = 0; s < n; s++) out[s] = s == winner;
        return;
    }
    double score[4];
    for (int s = 0; s < n; s++) {
        int shorts[4], near = near_tasks(&g->d[s], shorts);
        score[s] = g->d[s].covered - p->time_weight * g->time[s] + p->near_weight * near +
                   p->two_weight * shorts[2] + p->more_weight * shorts[3];
    }
    score[g->current] += p->turn_weight;
    if (n == 1) {
        out[0] = score[0];
        return;
    }
    for (int s = 0; s < n; s++) {
        double best_other = -1e300;
        for (int o = 0; o < n; o++)
            if (o != s && score[o] > best_other) best_other = score[o];
        out[s] = 1.0 / (1.0 + exp(-p->sharpness * (score[s] - best_other)));
    }
}

/* A few cover-seeking plies (the best of a random sample of placements, a refill when
 * none gains), then the leaf. */
static void rollout(NL *g, const Params *p, Source *src, uint64_t *rng, double *out) {
    Move pairs[MAX_PAIRS];
    for (int ply = 0; ply < p->rollout_plies && !g->over; ply++) {
        if (can_end_phase(g)) {
            end_phase1(g, src);
            continue;
        }
        int np = placements(g, pairs), k = np < p->rollout_samples ? np : p->rollout_samples;
        if (np == 0) break; /* never: a turn starts with tiles on the wheel */
        for (int i = 0; i < k; i++) { /* a random sample of k, in random order */
            int j = i + below(rng, np - i);
            Move t = pairs[i];
            pairs[i] = pairs[j];
            pairs[j] = t;
        }
        const Display *d = &g->d[g->current];
        int best = 0;
        double best_gain = 0.0;
        for (int i = 0; i < k; i++) {
            double v = gain(d, g->wheel[pairs[i].space], pairs[i].key);
            if (i == 0 || v > best_gain) { best = i; best_gain = v; }
        }
        if (can_refill(g) && best_gain < 0) {
            refill(g, src);
            g->refilled = 1;
            continue;
        }
        place(g, pairs[best].space, pairs[best].key, src);
    }
    rewards(g, p, out);
}

/* ---- the tree ------------------------------------------------------------------ */

static int new_node(Tree *t, int seat, Move move) {
    if (t->n == t->cap) {
        int cap = t->cap * 2;
        TNode *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    TNode *node = &t->nodes[t->n];
    node->first_child = node->next_sibling = -1;
    node->visits = 0;
    node->value = 0.0;
    node->move = move;
    node->seat = (int8_t)seat;
    node->ncand = -1;
    return t->n++;
}

static int child_of(const Tree *t, int node, Move m) {
    for (int c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
        if (same_move(t->nodes[c].move, m)) return c;
    return -1;
}

static int select_child(const Tree *t, int node, const Move *legal, int nlegal, double c) {
    double log_n = log(t->nodes[node].visits + 1.0), best_score = -1.0;
    int best = -1;
    for (int i = 0; i < nlegal; i++) {
        const TNode *child = &t->nodes[child_of(t, node, legal[i])];
        double score = child->value / child->visits + c * sqrt(log_n / child->visits);
        if (best < 0 || score > best_score) { best = i; best_score = score; }
    }
    return best;
}

/* One iteration from the root: walk the tree, add one node, roll out, back up.
 * -1 when out of memory. */
static int iterate(Tree *t, const NL *root, const uint8_t *unseen, int nunseen, const Params *p,
                   uint64_t *rng) {
    NL g;
    memcpy(&g, root, sizeof g);
    uint8_t pile[LAST_TILE];
    memcpy(pile, unseen, (size_t)nunseen);
    for (int i = nunseen - 1; i > 0; i--) { /* this iteration's order of the pile */
        int j = below(rng, i + 1);
        uint8_t tmp = pile[i];
        pile[i] = pile[j];
        pile[j] = tmp;
    }
    Source src = {pile, nunseen, 0, 0};
    int path[DISCS * 4 * 4 + 2 * LAST_TILE + 8], depth = 0, node = 0;
    path[depth++] = 0;
    Move legal[MAX_CANDIDATES + 3], fresh[MAX_CANDIDATES + 3];
    while (!g.over && depth < (int)(sizeof path / sizeof path[0])) {
        TNode *n = &t->nodes[node];
        if (n->ncand < 0) n->ncand = (int8_t)list_candidates(&g, p, n->cand);
        int nlegal = 0;
        for (int i = 0; i < n->ncand; i++)
            if (move_is_legal(&g, n->cand[i])) legal[nlegal++] = n->cand[i];
        if (nlegal == 0) { /* a refill changed what is on offer */
            nlegal = list_candidates(&g, p, fresh);
            memcpy(legal, fresh, (size_t)nlegal * sizeof legal[0]);
            if (nlegal == 0) break; /* never: a turn starts with tiles on the wheel */
        }
        int untried = -1;
        for (int i = 0; i < nlegal && untried < 0; i++)
            if (child_of(t, node, legal[i]) < 0) untried = i;
        if (untried >= 0) {
            apply_move(&g, legal[untried], &src);
            int child = new_node(t, g.current, legal[untried]);
            if (child < 0) return -1;
            n = &t->nodes[node]; /* the array may have moved */
            t->nodes[child].next_sibling = n->first_child;
            n->first_child = child;
            path[depth++] = child;
            break;
        }
        Move m = legal[select_child(t, node, legal, nlegal, p->exploration)];
        apply_move(&g, m, &src);
        node = child_of(t, node, m);
        path[depth++] = node;
    }
    double reward[4];
    rollout(&g, p, &src, rng, reward);
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        TNode *child = &t->nodes[path[i]];
        child->visits++;
        child->value += reward[t->nodes[path[i - 1]].seat];
    }
    return 0;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- Python: reading the position ------------------------------------------------ */

static int item_int(PyObject *seq, Py_ssize_t i, long lo, long hi, long *out) {
    return read_ranged(seq, i, lo, hi, "position entry", out);
}

/* A display from ((x, y, tile, open mask), ...) in the order laid: laid again tile by
 * tile (the groups and the frontier follow), then the open masks and covered set. */
static int read_display(PyObject *tiles, long covered, Display *d) {
    Py_ssize_t n = PySequence_Size(tiles);
    if (n < 0) return -1;
    if (n > 45) {
        PyErr_SetString(PyExc_ValueError, "a display holds at most 45 tiles");
        return -1;
    }
    display_init(d);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *entry = PySequence_GetItem(tiles, i);
        if (!entry) return -1;
        long x, y, tile, open;
        int bad = PySequence_Size(entry) != 4 || item_int(entry, 0, -44, 44, &x) < 0 ||
                  item_int(entry, 1, -44, 44, &y) < 0 || item_int(entry, 2, 1, LAST_TILE, &tile) < 0 ||
                  item_int(entry, 3, 0, 7, &open) < 0;
        Py_DECREF(entry);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a tile is (x, y, tile, open mask)");
            return -1;
        }
        int key = key_of((int)x, (int)y);
        if (!in_front(d, key)) {
            PyErr_SetString(PyExc_ValueError, "a tile not next to the display");
            return -1;
        }
        Found found[3 * MAXT];
        lay(d, (int)tile, key, found);
        d->open[d->n - 1] = (uint8_t)(open & ((1 << T_NTASK[tile]) - 1));
    }
    d->covered = (uint8_t)covered;
    return 0;
}

/* The position: (players, solo, phase, meeple, on_wheel, drawn, current, refilled,
 * over, turn, next_stamp, phase1_score, phase1_discs, wheel[12], supply, time, stamp,
 * displays, covered), the last five one entry per seat. */
static int read_position(PyObject *pos, NL *g) {
    memset(g, 0, sizeof *g);
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 19) {
        PyErr_SetString(PyExc_ValueError, "a position is a tuple of 19 entries");
        return -1;
    }
    long v[13];
    const long hi[13] = {4, 1, 2, SPACES - 1, SPACES, LAST_TILE, 3, 1, 1, 30000, 30000, 10000, DISCS};
    for (int i = 0; i < 13; i++)
        if (item_int(pos, i, 0, hi[i], &v[i]) < 0) return -1;
    int n = (int)v[0];
    if (n < 1 || v[6] >= n || (n == 1) != (v[1] == 1)) {
        PyErr_SetString(PyExc_ValueError, "players, solo and the seat to move disagree");
        return -1;
    }
    g->players = (uint8_t)n;
    g->solo = (uint8_t)v[1];
    g->phase = (uint8_t)(v[2] ? v[2] : 1);
    g->meeple = (uint8_t)v[3];
    g->on_wheel = (uint8_t)v[4];
    g->drawn = (uint8_t)v[5];
    g->current = (uint8_t)v[6];
    g->refilled = (uint8_t)v[7];
    g->over = (uint8_t)v[8];
    g->turn = (int16_t)v[9];
    g->next_stamp = (int16_t)v[10];
    g->phase1_score = (int16_t)v[11];
    g->phase1_discs = (int16_t)v[12];
    g->started = 1;
    g->pending = -1;
    PyObject *wheel = PyTuple_GET_ITEM(pos, 13);
    if (PySequence_Size(wheel) != SPACES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a wheel has 12 spaces");
        return -1;
    }
    int on_wheel = 0;
    for (int s = 0; s < SPACES; s++) {
        long tile;
        if (item_int(wheel, s, 0, LAST_TILE, &tile) < 0) return -1;
        g->wheel[s] = (uint8_t)tile;
        on_wheel += tile != 0;
    }
    if (on_wheel != g->on_wheel) {
        PyErr_SetString(PyExc_ValueError, "on_wheel does not count the wheel's tiles");
        return -1;
    }
    for (int k = 14; k < 19; k++) {
        PyObject *per_seat = PyTuple_GET_ITEM(pos, k);
        if (PySequence_Size(per_seat) != n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one entry per seat");
            return -1;
        }
    }
    for (int s = 0; s < n; s++) {
        long supply, time, stamp, covered;
        if (item_int(PyTuple_GET_ITEM(pos, 14), s, 0, DISCS, &supply) < 0 ||
            item_int(PyTuple_GET_ITEM(pos, 15), s, 0, 10000, &time) < 0 ||
            item_int(PyTuple_GET_ITEM(pos, 16), s, 0, 30000, &stamp) < 0 ||
            item_int(PyTuple_GET_ITEM(pos, 18), s, 0, 3 * 45, &covered) < 0)
            return -1;
        g->supply[s] = (uint8_t)supply;
        g->time[s] = (int16_t)time;
        g->stamp[s] = (int16_t)stamp;
        PyObject *tiles = PySequence_GetItem(PyTuple_GET_ITEM(pos, 17), s);
        if (!tiles) return -1;
        int bad = read_display(tiles, covered, &g->d[s]);
        Py_DECREF(tiles);
        if (bad < 0) return -1;
    }
    return 0;
}

static int read_params(PyObject *params, Params *p) {
    if (!PyArg_ParseTuple(params, "iiiddddddd", &p->candidates, &p->rollout_plies,
                          &p->rollout_samples, &p->exploration, &p->time_weight, &p->near_weight,
                          &p->sharpness, &p->two_weight, &p->more_weight, &p->turn_weight))
        return -1;
    if (p->candidates < 1 || p->candidates > MAX_CANDIDATES || p->rollout_plies < 0 ||
        p->rollout_plies > 200 || p->rollout_samples < 1 || !isfinite(p->exploration) ||
        !isfinite(p->time_weight) || !isfinite(p->near_weight) || !isfinite(p->sharpness) ||
        !isfinite(p->two_weight) || !isfinite(p->more_weight) || !isfinite(p->turn_weight)) {
        PyErr_SetString(PyExc_ValueError, "search parameters out of range");
        return -1;
    }
    return 0;
}

/* ---- Python: the module ---------------------------------------------------------- */

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *colors, *costs, *tasks;
    if (!PyArg_ParseTuple(args, "OOO", &colors, &costs, &tasks)) return NULL;
    if (load_tiles(colors, costs, tasks) < 0) return NULL;
    tiles_ready = 1;
    Py_RETURN_NONE;
}

/* The analysed move from Python's (space, x, y): -1 with a ValueError if it is
 * malformed or not legal at the root. */
static int read_move(PyObject *obj, const NL *root, Move *m) {
    long space, x, y;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 3 || item_int(obj, 0, MOVE_REFILL, SPACES - 1, &space) < 0 ||
        item_int(obj, 1, -44, 44, &x) < 0 || item_int(obj, 2, -44, 44, &y) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a move is (space, x, y)");
        return -1;
    }
    *m = (Move){(int8_t)space, space >= 0 ? (uint16_t)key_of((int)x, (int)y) : 0};
    if (!move_is_legal(root, *m)) {
        PyErr_SetString(PyExc_ValueError, "the analysed move is not legal here");
        return -1;
    }
    return 0;
}

/* The root offers its own candidates and `played` (the analysis's move, if the prior
 * left it out). */
static void offer_played(Tree *t, const NL *root, const Params *p, Move played) {
    TNode *r = &t->nodes[0];
    r->ncand = (int8_t)list_candidates(root, p, r->cand);
    for (int i = 0; i < r->ncand; i++)
        if (same_move(r->cand[i], played)) return;
    r->cand[r->ncand++] = played;
}

/* search(position, unseen, params, iterations, max_seconds, seed, played=None, fair=0)
 *   -> (iterations run, [(space, x, y, visits, value), ...] for the root's children,
 *       iterations added for `played`);
 * the time is checked every 8 iterations, a negative max_seconds is no cap. With
 * `played` (space, x, y), the analysis's move: the root offers it whatever the prior
 * thinks, and after the search it is topped up to `fair` visits by iterations in
 * which the root offers it alone (the tree below it grows as in any iteration). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *pos, *unseen_seq, *params, *played_obj = Py_None;
    int iterations, fair = 0;
    double max_seconds;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOidK|Oi", &pos, &unseen_seq, &params, &iterations, &max_seconds,
                          &seed, &played_obj, &fair))
        return NULL;
    if (fair < 0 || fair > MAX_ITERATIONS) {
        PyErr_Format(PyExc_ValueError, "fair must be 0 to %d", MAX_ITERATIONS);
        return NULL;
    }
    if (!isfinite(max_seconds)) {
        PyErr_SetString(PyExc_ValueError, "max_seconds must be finite");
        return NULL;
    }
    if (!tiles_ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() first");
        return NULL;
    }
    if (iterations < 1 || iterations > MAX_ITERATIONS) {
        PyErr_Format(PyExc_ValueError, "iterations must be 1 to %d", MAX_ITERATIONS);
        return NULL;
    }
    NL root;
    Params p;
    uint8_t unseen[LAST_TILE];
    if (read_position(pos, &root) < 0 || read_params(params, &p) < 0) return NULL;
    Py_ssize_t nunseen = PySequence_Size(unseen_seq);
    if (nunseen < 0) return NULL;
    if (nunseen != LAST_TILE - root.drawn) {
        PyErr_SetString(PyExc_ValueError, "the unseen tiles are the 68 less those drawn");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nunseen; i++) {
        long tile;
        if (item_int(unseen_seq, i, 1, LAST_TILE, &tile) < 0) return NULL;
        unseen[i] = (uint8_t)tile;
    }
    if (root.over) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    Move played = {0, 0};
    int analysed = played_obj != Py_None;
    if (analysed && read_move(played_obj, &root, &played) < 0) return NULL;
    Tree t = {malloc(1024 * sizeof(TNode)), 0, 1024};
    if (!t.nodes) return PyErr_NoMemory();
    new_node(&t, root.current, (Move){0, 0});
    if (analysed) offer_played(&t, &root, &p, played);
    uint64_t rng = seed;
    int done = 0, topped = 0, failed = 0;
    Py_BEGIN_ALLOW_THREADS
    int capped = max_seconds >= 0; /* a negative cap: none */
    double deadline = capped ? now() + max_seconds : 0.0;
    for (done = 0; done < iterations;) {
        if (iterate(&t, &root, unseen, (int)nunseen, &p, &rng) < 0) { failed = 1; break; }
        done++;
        if (capped && (done & 7) == 0 && now() > deadline) break;
    }
    if (analysed && !failed) {
        TNode *r = &t.nodes[0];
        Move kept[MAX_CANDIDATES + 3];
        int nkept = r->ncand;
        memcpy(kept, r->cand, sizeof kept);
        r->ncand = 1;
        r->cand[0] = played;
        int child = child_of(&t, 0, played);
        for (int have = child >= 0 ? t.nodes[child].visits : 0; have + topped < fair; topped++)
            if (iterate(&t, &root, unseen, (int)nunseen, &p, &rng) < 0) { failed = 1; break; }
        r = &t.nodes[0]; /* the array may have moved */
        r->ncand = (int8_t)nkept;
        memcpy(r->cand, kept, sizeof kept);
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        free(t.nodes);
        return PyErr_NoMemory();
    }
    PyObject *children = PyList_New(0);
    if (!children) { free(t.nodes); return NULL; }
    for (int c = t.nodes[0].first_child; c >= 0; c = t.nodes[c].next_sibling) {
        const TNode *child = &t.nodes[c];
        int x = child->move.space >= 0 ? key_x(child->move.key) : 0;
        int y = child->move.space >= 0 ? key_y(child->move.key) : 0;
        PyObject *entry = Py_BuildValue("(iiiid)", child->move.space, x, y, child->visits, child->value);
        if (!entry || PyList_Append(children, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(children);
            free(t.nodes);
            return NULL;
        }
        Py_DECREF(entry);
    }
    free(t.nodes);
    PyList_Reverse(children); /* in the order the children were added */
    return Py_BuildValue("(iNi)", done, children, topped);
}

/* A move as Python reads it: (space, x, y). */
static PyObject *move_tuple(Move m) {
    int placed = m.space >= 0;
    return Py_BuildValue("(iii)", m.space, placed ? key_x(m.key) : 0, placed ? key_y(m.key) : 0);
}

/* The arguments (position, params) of the two functions below. */
static int read_position_params(PyObject *args, NL *g, Params *p) {
    PyObject *pos, *params;
    if (!PyArg_ParseTuple(args, "OO", &pos, &params)) return -1;
    return read_position(pos, g) < 0 || read_params(params, p) < 0 ? -1 : 0;
}

/* candidates(position, params) -> [((space, x, y), gain), ...]: what a new node keeps,
 * in its order (refill and end first, with gain 0); for the tests against mcts.py. */
static PyObject *py_candidates(PyObject *self, PyObject *args) {
    NL g;
    Params p;
    if (read_position_params(args, &g, &p) < 0) return NULL;
    Move moves[MAX_CANDIDATES + 2];
    int n = list_candidates(&g, &p, moves);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        double v = moves[i].space >= 0 ? gain(&g.d[g.current], g.wheel[moves[i].space], moves[i].key) : 0.0;
        PyObject *entry = Py_BuildValue("(Nd)", move_tuple(moves[i]), v);
        if (!entry) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, entry);
    }
    return list;
}

/* leaf(position, params) -> [reward per seat]: the leaf's value of a position (the
 * result where the game is over); for the tests against mcts.py. */
static PyObject *py_leaf(PyObject *self, PyObject *args) {
    NL g;
    Params p;
    if (read_position_params(args, &g, &p) < 0) return NULL;
    double out[4];
    rewards(&g, &p, out);
    PyObject *list = PyList_New(g.players);
    if (!list) return NULL;
    for (int s = 0; s < g.players; s++) {
        PyObject *v = PyFloat_FromDouble(out[s]);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static PyMethodDef module_methods[] = {
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, params): a new node's moves"},
    {"leaf", py_leaf, METH_VARARGS, "leaf(position, params): the leaf's reward per seat"},
    {"setup", py_setup, METH_VARARGS, "setup(colors, costs, tasks): the rules' tile data"},
    {"search", py_search, METH_VARARGS,
     "search(position, unseen, params, iterations, max_seconds, seed, played=None, fair=0) -> "
     "(iterations run, children, iterations added for played)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_mctskernel", "The mcts bot's search in C.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__mctskernel(void) { return PyModule_Create(&module); }
