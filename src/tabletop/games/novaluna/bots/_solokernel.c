/* The solo planner's search kernel: beam search over one solo phase, and the
 * phase-2 outcome of phase-1 end states over sampled refills.
 *
 * Python (bots/solo.py) decides what to search and what to play; this file only
 * makes the search fast. It knows the solo rules that matter inside one phase:
 * take one of the next three tiles clockwise from the meeple, lay it next to the
 * display, and count the fulfilled tasks. Fulfilment only ever grows (groups
 * only grow), so the discs on a display are simply its fulfilled tasks, and the
 * order the tiles were laid in does not matter. The rules engine stays the
 * reference: tests check this kernel's counts against it.
 *
 * Tile data comes from the package's tiles.json through setup_tiles(); nothing
 * is retyped here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NTILES 69
#define GRID 64 /* cells: (x + 32) * 64 + (y + 32) */
#define CENTER 32
#define MAXT 24 /* tiles a display can hold in the solo game (11 + 11 + slack) */
#define SPACES 12
#define DISCS 21
#define PHASE1_DISCS 8
#define END_SPACE 255 /* the action "end phase 1" */

/* ---- tiles ------------------------------------------------------------------ */

static int tiles_ready = 0;
static uint8_t T_COLOR[NTILES], T_COST[NTILES], T_NTASK[NTILES];
static uint8_t T_NEED[NTILES][3][4];   /* tiles of each colour a task needs */
static uint8_t T_WANTS[NTILES][4];     /* per colour: mask of the tasks needing it */

/* ---- nodes ------------------------------------------------------------------ */

/* One line of play: the display it reaches and how the wheel stands. */
typedef struct {
    uint16_t cell[MAXT];
    uint8_t tile[MAXT];
    uint8_t n;        /* tiles in the display */
    uint8_t discs;    /* fulfilled tasks (not capped at 21) */
    uint16_t cost;    /* cost of the whole display */
    uint16_t taken;   /* wheel spaces emptied since the search's root */
    int8_t meeple;
    uint8_t last_space;  /* the action from the parent */
    uint16_t last_cell;
    int32_t parent;   /* index in the previous layer, -1 for the root */
    float value;
    float g[4];       /* open tasks 1, 2, 3, 4+ tiles short (for the heuristic) */
} Node;

/* ---- parameters of the heuristic (see Settings in solo.py for the meaning) ---- */

enum {
    P_RATE2 = 0, /* phase 2: points per disc still to place */
    P_NEAR2_1,   /* phase 2: bonus per open task 1 tile short */
    P_NEAR2_2,   /* ... 2 tiles short */
    P_NEAR2_3,
    P_RATE1,     /* phase 1: points per disc (of 21) still to place */
    P_NEAR1_1,
    P_NEAR1_2,
    P_NEAR1_3,
    P_END_BASE,  /* phase-1 end value: constant */
    P_END_RATE,  /* ... per disc of 21 still to place */
    P_END_NEAR1,
    P_END_NEAR2,
    P_END_NEAR3,
    P_END_TILE,  /* ... per tile taken in phase 1 (each is refilled at random) */
    NPARAMS
};

/* ---- the display of one parent, expanded for evaluating its children ---------- */

typedef struct {
    int8_t grid[GRID * GRID]; /* slot of the tile on a cell, -1 if empty */
    uint32_t mark[GRID * GRID];
    uint32_t stamp;
    int n;
    int cell[MAXT], tile[MAXT];
    int group[MAXT]; /* a slot's group: the slot of its first member */
    int gsize[MAXT]; /* by group id */
    int cnt[MAXT][4];
    uint8_t open[MAXT];      /* tasks not fulfilled */
    uint8_t miss[MAXT][3];   /* tiles a task still lacks */
    int front[4 * MAXT + 4];
    int nfront;
    int watch[4][MAXT];      /* slots with open tasks needing a colour */
    int nwatch[4];
    int discs;
    int g[5];                /* open tasks by tiles lacking: [1], [2], [3], [4]=4+ */
} Ctx;

/* For callers holding the GIL; a search that releases it gets its own (ctx_new), so
 * several Python threads, or the sample threads, never share one. */
static Ctx main_ctx;

static Ctx *ctx_new(void) {
    Ctx *x = calloc(1, sizeof(Ctx));
    if (x) memset(x->grid, -1, sizeof x->grid);
    return x;
}

static inline int lacking(const int *counts, const uint8_t *need) {
    int m = 0;
    for (int c = 0; c < 4; c++)
        if (need[c] > counts[c]) m += need[c] - counts[c];
    return m;
}

static inline int gap_bucket(int m) { return m > 4 ? 4 : m; }

/* The distinct groups next to cell `c` (returned: how many), their colours, and per
 * colour the tiles they hold added to `counts`. Needs the groups of load(). */
static int neighbour_groups(const Ctx *x, int c, int groups[4], int colors[4], int counts[4]) {
    int nb[4] = {c + 1, c - 1, c + GRID, c - GRID}, n = 0;
    for (int k = 0; k < 4; k++) {
        int t = x->grid[nb[k]];
        if (t < 0) continue;
        int g = x->group[t], dup = 0;
        for (int j = 0; j < n; j++) dup |= groups[j] == g;
        if (dup) continue;
        groups[n] = g;
        colors[n] = T_COLOR[x->tile[t]];
        counts[colors[n]] += x->gsize[g];
        n++;
    }
    return n;
}

/* Lay out a node's display in the context: groups, counts, open tasks, frontier. */
static void load(Ctx *x, const Node *node) {
    x->n = node->n;
    for (int i = 0; i < node->n; i++) {
        x->cell[i] = node->cell[i];
        x->tile[i] = node->tile[i];
        x->grid[node->cell[i]] = (int8_t)i;
        x->group[i] = -1;
    }
    /* groups by flood fill */
    int stack[MAXT];
    for (int i = 0; i < x->n; i++) {
        if (x->group[i] >= 0) continue;
        int col = T_COLOR[x->tile[i]], top = 0, size = 0;
        x->group[i] = i;
        stack[top++] = i;
        while (top) {
            int s = stack[--top], c = x->cell[s];
            size++;
            int nb[4] = {c + 1, c - 1, c + GRID, c - GRID};
            for (int k = 0; k < 4; k++) {
                int t = x->grid[nb[k]];
                if (t >= 0 && x->group[t] < 0 && T_COLOR[x->tile[t]] == col) {
                    x->group[t] = i;
                    stack[top++] = t;
                }
            }
        }
        x->gsize[i] = size;
    }
    /* counts, open tasks, watchers */
    x->discs = 0;
    memset(x->g, 0, sizeof x->g);
    memset(x->nwatch, 0, sizeof x->nwatch);
    for (int i = 0; i < x->n; i++) {
        int tile = x->tile[i], c = x->cell[i];
        int *cnt = x->cnt[i];
        cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
        int groups[4], colors[4];
        neighbour_groups(x, c, groups, colors, cnt);
        int own = T_COLOR[tile];
        if (cnt[own]) cnt[own] -= 1;
        x->open[i] = 0;
        for (int k = 0; k < T_NTASK[tile]; k++) {
            int m = lacking(cnt, T_NEED[tile][k]);
            x->miss[i][k] = (uint8_t)m;
            if (m == 0) {
                x->discs++;
            } else {
                x->open[i] |= (uint8_t)(1 << k);
                x->g[gap_bucket(m)]++;
            }
        }
        for (int col = 0; col < 4; col++)
            if (x->open[i] & T_WANTS[tile][col]) x->watch[col][x->nwatch[col]++] = i;
    }
    /* frontier: empty cells next to a tile */
    x->stamp++;
    x->nfront = 0;
    for (int i = 0; i < x->n; i++) {
        int c = x->cell[i];
        int nb[4] = {c + 1, c - 1, c + GRID, c - GRID};
        for (int k = 0; k < 4; k++) {
            int e = nb[k];
            if (x->grid[e] < 0 && x->mark[e] != x->stamp) {
                x->mark[e] = x->stamp;
                x->front[x->nfront++] = e;
            }
        }
    }
    if (x->n == 0) {
        x->front[0] = CENTER * GRID + CENTER;
        x->nfront = 1;
    }
}

static void unload(Ctx *x) {
    for (int i = 0; i < x->n; i++) x->grid[x->cell[i]] = -1;
}

/* What laying `tile` on the empty frontier cell `c` of the loaded display does:
 * the tasks it fulfils (returned) and the change in open tasks by tiles lacking. */
static int child_eval(Ctx *x, int tile, int c, int dg[5]) {
    int col = T_COLOR[tile];
    int groups[4], joined[4], nj = 0;
    int counts[4] = {0, 0, 0, 0};
    int colors[4];
    int ng = neighbour_groups(x, c, groups, colors, counts);
    for (int j = 0; j < ng; j++)
        if (colors[j] == col) joined[nj++] = groups[j];
    int merged = 1;
    for (int j = 0; j < nj; j++) merged += x->gsize[joined[j]];
    int gained = 0;
    dg[0] = dg[1] = dg[2] = dg[3] = dg[4] = 0;
    /* the new tile's own tasks (its own colour already counts its group less itself) */
    for (int k = 0; k < T_NTASK[tile]; k++) {
        int m = lacking(counts, T_NEED[tile][k]);
        if (m == 0) gained++;
        else dg[gap_bucket(m)]++;
    }
    /* open tasks of other tiles that need this colour */
    for (int w = 0; w < x->nwatch[col]; w++) {
        int u = x->watch[col][w];
        int old = x->cnt[u][col], now;
        if (T_COLOR[x->tile[u]] == col) {
            int in = 0;
            for (int j = 0; j < nj; j++) in |= x->group[u] == joined[j];
            if (!in) continue;
            now = merged - 1;
        } else {
            int uc = x->cell[u], touch = 0, sum = 0, useen[4], nu = 0;
            int unb[4] = {uc + 1, uc - 1, uc + GRID, uc - GRID};
            for (int k = 0; k < 4; k++) {
                int e = unb[k];
                if (e == c) { touch = 1; continue; }
                int t = x->grid[e];
                if (t < 0 || T_COLOR[x->tile[t]] != col) continue;
                int g = x->group[t], in = 0, dup = 0;
                for (int j = 0; j < nj; j++) in |= g == joined[j];
                if (in) { touch = 1; continue; }
                for (int j = 0; j < nu; j++) dup |= useen[j] == g;
                if (!dup) { useen[nu++] = g; sum += x->gsize[g]; }
            }
            now = sum + (touch ? merged : 0);
        }
        if (now == old) continue;
        int utile = x->tile[u];
        uint8_t want = x->open[u] & T_WANTS[utile][col];
        for (int k = 0; k < T_NTASK[utile]; k++) {
            if (!(want >> k & 1)) continue;
            int need = T_NEED[utile][k][col];
            int before = x->miss[u][k];
            int lost = (need > old ? need - old : 0) - (need > now ? need - now : 0);
            int after = before - lost;
            if (after == before) continue;
            dg[gap_bucket(before)]--;
            if (after == 0) gained++;
            else dg[gap_bucket(after)]++;
        }
    }
    return gained;
}

/* ---- the wheel ----------------------------------------------------------------- */

static int takeable(const uint8_t *wheel, uint16_t taken, int meeple, int out[3]) {
    int n = 0;
    for (int k = 1; k < SPACES && n < 3; k++) {
        int s = (meeple + k) % SPACES;
        if (wheel[s] && !(taken >> s & 1)) out[n++] = s;
    }
    return n;
}

static int wheel_left(const uint8_t *wheel, uint16_t taken) {
    int n = 0;
    for (int s = 0; s < SPACES; s++) n += wheel[s] && !(taken >> s & 1);
    return n;
}

/* ---- values -------------------------------------------------------------------- */

static inline int missing_of(int discs, int goal) { return discs >= goal ? 0 : goal - discs; }

/* Estimated final score of an unfinished line (lower is better). */
static float heuristic(const float *p, int phase, int cost, int discs, const int *g) {
    if (phase == 2)
        return (float)cost + p[P_RATE2] * missing_of(discs, DISCS) - p[P_NEAR2_1] * g[1] -
               p[P_NEAR2_2] * g[2] - p[P_NEAR2_3] * g[3];
    return 2.0f * cost + 10.0f * missing_of(discs, PHASE1_DISCS) +
           p[P_RATE1] * missing_of(discs, DISCS) - p[P_NEAR1_1] * g[1] - p[P_NEAR1_2] * g[2] -
           p[P_NEAR1_3] * g[3];
}

/* Estimated final score of a line that ends phase 1 here (phase1_tiles: tiles taken
 * in phase 1, each of which leaves a space for the random refill). */
static float end_value(const float *p, int cost, int discs, const int *g, int phase1_tiles) {
    if (discs >= DISCS) return 2.0f * cost; /* the game is over */
    return 2.0f * cost + 10.0f * missing_of(discs, PHASE1_DISCS) + p[P_END_BASE] +
           p[P_END_RATE] * missing_of(discs, DISCS) - p[P_END_NEAR1] * g[1] -
           p[P_END_NEAR2] * g[2] - p[P_END_NEAR3] * g[3] + p[P_END_TILE] * phase1_tiles;
}

/* Exact phase-2 score of a finished phase-2 line (the display's cost counts again). */
static inline float phase2_score(int cost, int discs) {
    return (float)cost + 10.0f * missing_of(discs, DISCS);
}

/* ---- canonical keys (a display is the same up to rotation, reflection, shift) ---- */

static inline uint64_t mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t display_key(const uint16_t *cells, const uint8_t *tiles, int n) {
    uint64_t best = UINT64_MAX;
    for (int sym = 0; sym < 8; sym++) {
        int xs[MAXT], ys[MAXT], minx = 1 << 20, miny = 1 << 20;
        for (int i = 0; i < n; i++) {
            int x = cells[i] / GRID - CENTER, y = cells[i] % GRID - CENTER, a, b;
            switch (sym) {
            case 0: a = x; b = y; break;
            case 1: a = -x; b = y; break;
            case 2: a = x; b = -y; break;
            case 3: a = -x; b = -y; break;
            case 4: a = y; b = x; break;
            case 5: a = -y; b = x; break;
            case 6: a = y; b = -x; break;
            default: a = -y; b = -x; break;
            }
            xs[i] = a;
            ys[i] = b;
            if (a < minx) minx = a;
            if (b < miny) miny = b;
        }
        /* order-independent: a sum of mixed per-tile codes */
        uint64_t h = 0;
        for (int i = 0; i < n; i++) {
            uint64_t code = ((uint64_t)(xs[i] - minx) << 16) | ((uint64_t)(ys[i] - miny) << 8) |
                            tiles[i];
            h += mix64(code);
        }
        if (h < best) best = h;
    }
    return best;
}

static uint64_t node_key(const Node *node, int with_wheel) {
    uint64_t h = display_key(node->cell, node->tile, node->n);
    if (with_wheel) h ^= mix64(((uint64_t)node->taken << 8) | (uint8_t)node->meeple) * 31;
    return h;
}

/* A small open-addressing set of 64-bit keys. */
typedef struct {
    uint64_t *slots;
    size_t cap; /* a power of two */
} KeySet;

static int keyset_init(KeySet *s, size_t want) {
    size_t cap = 64;
    while (cap < 2 * want + 2) cap <<= 1;
    s->slots = calloc(cap, sizeof(uint64_t));
    s->cap = cap;
    return s->slots != NULL;
}

/* Adds the key; returns 1 if it was new. Key 0 is remapped (0 marks an empty slot). */
static int keyset_add(KeySet *s, uint64_t key) {
    if (!key) key = 1;
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);
    while (s->slots[i]) {
        if (s->slots[i] == key) return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->slots[i] = key;
    return 1;
}

/* ---- beam search ------------------------------------------------------------- */

typedef struct {
    float value;
    int32_t parent;
    uint8_t space;
    uint8_t gained;
    uint16_t cell;
    int8_t dg[5];
} Child;

/* Children are ranked by a 64-bit key: the value's bits made to sort as unsigned
 * integers, then the order they were made in (so the ranking is total and the
 * same on every machine). */
static inline uint64_t rank_key(float value, uint32_t order) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    bits = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
    return ((uint64_t)bits << 32) | order;
}

static int u64_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Move the m smallest keys to the front (in no order): quickselect. Keys are
 * distinct, so a median-of-three pivot is never the largest and each round shrinks. */
static void select_smallest(uint64_t *k, size_t n, size_t m) {
    size_t lo = 0, hi = n;
    while (hi - lo > 1 && m > lo && m < hi) {
        if (hi - lo == 2) { /* the median of three below needs three distinct keys */
            if (k[lo] > k[lo + 1]) { uint64_t t = k[lo]; k[lo] = k[lo + 1]; k[lo + 1] = t; }
            return;
        }
        uint64_t a = k[lo], b = k[lo + (hi - lo) / 2], c = k[hi - 1];
        uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi - 1;
        for (;;) {
            while (k[i] < pivot) i++;
            while (k[j] > pivot) j--;
            if (i >= j) break;
            uint64_t t = k[i]; k[i] = k[j]; k[j] = t;
            i++; j--;
        }
        if (m <= j) hi = j + 1;
        else lo = j + 1;
    }
}

typedef struct {
    const uint8_t *wheel;
    int phase;          /* 1 or 2 */
    int phase1_tiles;   /* phase 1: tiles the root display already holds from phase 1 */
    int root_n;         /* tiles in the root display */
    const float *p;
    int beam;
    long budget;        /* child evaluations allowed; then one line at a time */
    long used;
    int keep;           /* finished lines to return (distinct end states) */
    int allow_end_at_root;
    Ctx *x;             /* the display workspace this search may use */
} Search;

typedef struct {
    Node *nodes;
    int n, cap;
} NodeList;

static int list_push(NodeList *l, const Node *node) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        Node *grown = realloc(l->nodes, (size_t)cap * sizeof(Node));
        if (!grown) return 0;
        l->nodes = grown;
        l->cap = cap;
    }
    l->nodes[l->n++] = *node;
    return 1;
}

/* A child node: the parent with one more tile (its values filled in by the caller). */
static void make_child(const Node *parent, const Child *ch, const uint8_t *wheel, Node *out) {
    *out = *parent;
    out->cell[out->n] = ch->cell;
    out->tile[out->n] = wheel[ch->space];
    out->n++;
    out->cost = (uint16_t)(parent->cost + T_COST[wheel[ch->space]]);
    out->discs = (uint8_t)(parent->discs + ch->gained);
    out->taken = (uint16_t)(parent->taken | (1 << ch->space));
    out->meeple = (int8_t)ch->space;
    out->last_space = ch->space;
    out->last_cell = ch->cell;
    for (int k = 0; k < 4; k++) out->g[k] = parent->g[k] + ch->dg[k + 1];
    out->value = ch->value;
}

/* A line's moves from the search's root: wheel spaces (END_SPACE: end phase 1) and cells. */
typedef struct {
    int n;
    uint8_t space[MAXT + 1];
    uint16_t cell[MAXT + 1];
} Path;

typedef struct {
    Node **nodes; /* per depth, the layer of lines kept */
    int *count;
    int n, cap;
} Layers;

static int layers_push(Layers *l, Node *layer, int count) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        Node **nodes = realloc(l->nodes, (size_t)cap * sizeof(Node *));
        if (!nodes) return 0;
        l->nodes = nodes;
        int *counts = realloc(l->count, (size_t)cap * sizeof(int));
        if (!counts) return 0;
        l->count = counts;
        l->cap = cap;
    }
    l->nodes[l->n] = layer;
    l->count[l->n++] = count;
    return 1;
}

static void layers_free(Layers *l) {
    for (int i = 0; i < l->n; i++) free(l->nodes[i]);
    free(l->nodes);
    free(l->count);
}

/* The moves of a finished line: its parent's line, then its last move. A finished
 * node's `parent` indexes layer `depth` (its parent's layer). */
static void trace(const Layers *l, const Node *fin, int depth, Path *out) {
    uint8_t sp[MAXT + 1];
    uint16_t ce[MAXT + 1];
    int n = 0;
    sp[n] = fin->last_space;
    ce[n++] = fin->last_cell;
    const Node *node = &l->nodes[depth][fin->parent];
    for (int d = depth; d > 0; d--) {
        sp[n] = node->last_space;
        ce[n++] = node->last_cell;
        node = &l->nodes[d - 1][node->parent];
    }
    out->n = n;
    for (int i = 0; i < n; i++) {
        out->space[i] = sp[n - 1 - i];
        out->cell[i] = ce[n - 1 - i];
    }
}

typedef struct {
    Node node;
    int depth;  /* the layer of its parent */
    int order;  /* tie-break: the order lines finished in */
} Finished;

typedef struct {
    Finished *items;
    int n, cap;
} FinishedList;

static int finished_push(FinishedList *l, const Node *node, int depth, int parent) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        Finished *grown = realloc(l->items, (size_t)cap * sizeof(Finished));
        if (!grown) return 0;
        l->items = grown;
        l->cap = cap;
    }
    Finished *f = &l->items[l->n];
    f->node = *node;
    f->node.parent = parent;
    f->depth = depth;
    f->order = l->n++;
    return 1;
}

static int finished_cmp(const void *a, const void *b) {
    const Finished *x = a, *y = b;
    if (x->node.value < y->node.value) return -1;
    if (x->node.value > y->node.value) return 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Beam search from `root` to the end of its phase. The best finished lines (distinct
 * end states, best first, at most s->keep) go to `done`, their moves to `paths`
 * (room for s->keep). Returns 0 on a memory error. */
static int beam_search(Search *s, const Node *root, NodeList *done, Path *paths) {
    const float *p = s->p;
    Ctx *x = s->x;
    int ok = 0;
    Layers layers = {0};
    Child *kids = NULL;
    size_t kcap = 0;
    uint64_t *ranks = NULL;
    size_t rcap = 0;
    FinishedList finished = {0};
    KeySet seen_done = {0};
    Node *layer = malloc(sizeof(Node));
    if (!layer) goto out;
    layer[0] = *root;
    layer[0].parent = -1;
    if (!layers_push(&layers, layer, 1)) { free(layer); goto out; }
    if (!keyset_init(&seen_done, 1024)) goto out;
    float best_exact = 1e30f;
    for (int depth = 0; layers.count[depth]; depth++) {
        layer = layers.nodes[depth];
        int nlayer = layers.count[depth];
        size_t nk = 0;
        for (int i = 0; i < nlayer; i++) {
            Node *par = &layer[i];
            if (s->phase == 1 && par->discs >= PHASE1_DISCS && (depth || s->allow_end_at_root)) {
                Node end = *par;
                int g[5] = {0, (int)par->g[0], (int)par->g[1], (int)par->g[2], (int)par->g[3]};
                end.value = end_value(p, par->cost, par->discs, g,
                                      s->phase1_tiles + par->n - s->root_n);
                end.last_space = END_SPACE;
                end.last_cell = 0;
                if (!finished_push(&finished, &end, depth, i)) goto out;
            }
            if (s->phase == 2 && (float)par->cost >= best_exact) continue; /* cannot win */
            load(x, par);
            int spaces[3];
            int nsp = takeable(s->wheel, par->taken, par->meeple, spaces);
            size_t need = nk + (size_t)nsp * (size_t)x->nfront;
            if (need > kcap) {
                size_t cap = kcap ? kcap : 4096;
                while (cap < need) cap *= 2;
                Child *grown = realloc(kids, cap * sizeof(Child));
                if (!grown) { unload(x); goto out; }
                kids = grown;
                kcap = cap;
            }
            int last_tile = wheel_left(s->wheel, par->taken) == 1;
            for (int a = 0; a < nsp; a++) {
                int sp = spaces[a], tile = s->wheel[sp];
                for (int f = 0; f < x->nfront; f++) {
                    int dg[5];
                    int gained = child_eval(x, tile, x->front[f], dg);
                    Child *ch = &kids[nk];
                    ch->parent = i;
                    ch->space = (uint8_t)sp;
                    ch->cell = (uint16_t)x->front[f];
                    ch->gained = (uint8_t)gained;
                    for (int k = 0; k < 5; k++) ch->dg[k] = (int8_t)dg[k];
                    int cost = par->cost + T_COST[tile], discs = par->discs + gained;
                    int g[5] = {0, x->g[1] + dg[1], x->g[2] + dg[2], x->g[3] + dg[3],
                                x->g[4] + dg[4]};
                    if (discs >= DISCS || last_tile) {
                        /* the phase (or the game) ends with this tile */
                        Node end;
                        make_child(par, ch, s->wheel, &end);
                        if (s->phase == 2) {
                            end.value = phase2_score(cost, discs);
                            if (end.value < best_exact) best_exact = end.value;
                        } else {
                            end.value = end_value(p, cost, discs, g,
                                                  s->phase1_tiles + end.n - s->root_n);
                        }
                        if (!finished_push(&finished, &end, depth, i)) { unload(x); goto out; }
                        continue;
                    }
                    ch->value = heuristic(p, s->phase, cost, discs, g);
                    nk++;
                }
            }
            s->used += (long)nsp * x->nfront;
            unload(x);
        }
        /* the next layer: the best distinct children. Only the best few are
         * sorted; the rest only if merging equal displays used those up. */
        int width = s->used < s->budget ? s->beam : 1;
        if (nk > rcap) {
            uint64_t *grown = realloc(ranks, nk * sizeof(uint64_t));
            if (!grown) goto out;
            ranks = grown;
            rcap = nk;
        }
        for (size_t k = 0; k < nk; k++) ranks[k] = rank_key(kids[k].value, (uint32_t)k);
        size_t sorted = (size_t)width * 2 + 16;
        if (sorted > nk) sorted = nk;
        select_smallest(ranks, nk, sorted);
        qsort(ranks, sorted, sizeof(uint64_t), u64_cmp);
        Node *next = malloc((size_t)width * sizeof(Node));
        if (!next) goto out;
        KeySet seen = {0};
        if (!keyset_init(&seen, (size_t)width * 2)) { free(next); goto out; }
        int nn = 0;
        for (size_t r = 0; r < nk && nn < width; r++) {
            if (r == sorted) qsort(ranks + r, nk - r, sizeof(uint64_t), u64_cmp);
            Child *ch = &kids[(uint32_t)ranks[r]];
            Node *par = &layer[ch->parent];
            if (s->phase == 2 && (float)(par->cost + T_COST[s->wheel[ch->space]]) >= best_exact)
                continue; /* its cost alone already loses to a finished line */
            make_child(par, ch, s->wheel, &next[nn]);
            if (!keyset_add(&seen, node_key(&next[nn], 1))) continue;
            next[nn].parent = ch->parent;
            nn++;
        }
        free(seen.slots);
        if (!layers_push(&layers, next, nn)) { free(next); goto out; }
    }
    /* finished lines: best first, distinct end states */
    qsort(finished.items, (size_t)finished.n, sizeof(Finished), finished_cmp);
    for (int i = 0; i < finished.n && done->n < s->keep; i++) {
        Finished *f = &finished.items[i];
        if (!keyset_add(&seen_done, node_key(&f->node, 1))) continue;
        if (paths) trace(&layers, &f->node, f->depth, &paths[done->n]);
        if (!list_push(done, &f->node)) goto out;
    }
    ok = 1;
out:
    layers_free(&layers);
    free(kids);
    free(ranks);
    free(finished.items);
    free(seen_done.slots);
    return ok;
}

/* ---- Python interface -------------------------------------------------------------- */

static int cell_from_py(long key) {
    /* Python cells: ((x + 128) << 8) + y + 128 */
    long x = (key >> 8) - 128, y = (key & 255) - 128;
    if (x <= -CENTER + 1 || x >= CENTER - 1 || y <= -CENTER + 1 || y >= CENTER - 1) return -1;
    return (int)((x + CENTER) * GRID + (y + CENTER));
}

static long cell_to_py(int c) {
    long x = c / GRID - CENTER, y = c % GRID - CENTER;
    return ((x + 128) << 8) + y + 128;
}

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_params(PyObject *seq, float *p) {
    PyObject *fast = PySequence_Fast(seq, "params must be a sequence");
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != NPARAMS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "params must be %d numbers, not %zd", NPARAMS, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(fast); return 0; }
        p[i] = (float)v;
    }
    Py_DECREF(fast);
    return 1;
}

/* display: ((cell, tile), ...) in Python cell keys; wheel: 12 tile ids. */
static int read_position(PyObject *display, PyObject *wheel_obj, int meeple, Node *root,
                         uint8_t wheel[SPACES]) {
    if (!tiles_ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup_tiles() has not been called");
        return 0;
    }
    memset(root, 0, sizeof *root);
    PyObject *fast = PySequence_Fast(display, "display must be a sequence of (cell, tile)");
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXT - 1) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "display too large for the solo kernel");
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int pair[2];
        if (read_ints(PySequence_Fast_GET_ITEM(fast, i), pair, 2, "a (cell, tile) pair") != 2) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad (cell, tile) pair");
            return 0;
        }
        int c = cell_from_py(pair[0]);
        if (c < 0 || pair[1] < 1 || pair[1] >= NTILES) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "cell or tile out of range");
            return 0;
        }
        root->cell[i] = (uint16_t)c;
        root->tile[i] = (uint8_t)pair[1];
        root->cost = (uint16_t)(root->cost + T_COST[pair[1]]);
    }
    Py_DECREF(fast);
    root->n = (uint8_t)n;
    int w[SPACES];
    if (read_ints(wheel_obj, w, SPACES, "wheel must be 12 tile ids") != SPACES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "wheel must be 12 tile ids");
        return 0;
    }
    for (int s = 0; s < SPACES; s++) {
        if (w[s] < 0 || w[s] >= NTILES) {
            PyErr_SetString(PyExc_ValueError, "wheel tile out of range");
            return 0;
        }
        wheel[s] = (uint8_t)w[s];
    }
    int on_wheel = 0;
    for (int s = 0; s < SPACES; s++) on_wheel += wheel[s] != 0;
    if (n + on_wheel > MAXT) {
        PyErr_SetString(PyExc_ValueError, "display and wheel too large for the solo kernel");
        return 0;
    }
    if (meeple < 0 || meeple >= SPACES) {
        PyErr_SetString(PyExc_ValueError, "meeple must be a wheel space 0-11");
        return 0;
    }
    root->meeple = (int8_t)meeple;
    load(&main_ctx, root);
    root->discs = (uint8_t)main_ctx.discs;
    root->g[0] = (float)main_ctx.g[1];
    root->g[1] = (float)main_ctx.g[2];
    root->g[2] = (float)main_ctx.g[3];
    root->g[3] = (float)main_ctx.g[4];
    unload(&main_ctx);
    root->parent = -1;
    return 1;
}

/* A display as ((cell, tile), ...) sorted by cell, like the input: the same display
 * is then the same tuple however it was reached (solo.py keys its caches on it). */
static PyObject *display_tuple(const Node *node) {
    int order[MAXT];
    for (int i = 0; i < node->n; i++) {
        int j = i;
        for (; j > 0 && node->cell[order[j - 1]] > node->cell[i]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    PyObject *t = PyTuple_New(node->n);
    if (!t) return NULL;
    for (int k = 0; k < node->n; k++) {
        int i = order[k];
        PyObject *pair = Py_BuildValue("(li)", cell_to_py(node->cell[i]), (int)node->tile[i]);
        if (!pair) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, k, pair);
    }
    return t;
}

static PyObject *wheel_tuple(const uint8_t *wheel, uint16_t taken) {
    PyObject *t = PyTuple_New(SPACES);
    if (!t) return NULL;
    for (int s = 0; s < SPACES; s++)
        PyTuple_SET_ITEM(t, s, PyLong_FromLong((taken >> s & 1) ? 0 : wheel[s]));
    return t;
}

/* A line's moves as ((space, cell), ...), with (-1, None) for "end phase 1". */
static PyObject *path_tuple(const Path *path) {
    PyObject *t = PyTuple_New(path->n);
    if (!t) return NULL;
    for (int i = 0; i < path->n; i++) {
        PyObject *move = path->space[i] == END_SPACE
                             ? Py_BuildValue("(iO)", -1, Py_None)
                             : Py_BuildValue("(il)", (int)path->space[i], cell_to_py(path->cell[i]));
        if (!move) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, move);
    }
    return t;
}

static PyObject *py_setup_tiles(PyObject *self, PyObject *args) {
    PyObject *colors, *costs, *tasks;
    if (!PyArg_ParseTuple(args, "OOO", &colors, &costs, &tasks)) return NULL;
    int col[NTILES], cost[NTILES];
    if (read_ints(colors, col, NTILES, "colors") != NTILES) goto bad;
    if (read_ints(costs, cost, NTILES, "costs") != NTILES) goto bad;
    PyObject *ft = PySequence_Fast(tasks, "tasks");
    if (!ft) return NULL;
    if (PySequence_Fast_GET_SIZE(ft) != NTILES) { Py_DECREF(ft); goto bad; }
    memset(T_NEED, 0, sizeof T_NEED);
    memset(T_WANTS, 0, sizeof T_WANTS);
    for (int t = 1; t < NTILES; t++) {
        T_COLOR[t] = (uint8_t)col[t];
        T_COST[t] = (uint8_t)cost[t];
        PyObject *tt = PySequence_Fast(PySequence_Fast_GET_ITEM(ft, t), "a tile's tasks");
        if (!tt) { Py_DECREF(ft); return NULL; }
        Py_ssize_t nt = PySequence_Fast_GET_SIZE(tt);
        if (nt > 3) { Py_DECREF(tt); Py_DECREF(ft); goto bad; }
        T_NTASK[t] = (uint8_t)nt;
        for (Py_ssize_t k = 0; k < nt; k++) {
            PyObject *task = PySequence_Fast(PySequence_Fast_GET_ITEM(tt, k), "a task");
            if (!task) { Py_DECREF(tt); Py_DECREF(ft); return NULL; }
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(task); j++) {
                int pair[2];
                if (read_ints(PySequence_Fast_GET_ITEM(task, j), pair, 2, "a (colour, count)") != 2 ||
                    pair[0] < 0 || pair[0] > 3) {
                    Py_DECREF(task); Py_DECREF(tt); Py_DECREF(ft);
                    if (!PyErr_Occurred()) goto bad;
                    return NULL;
                }
                T_NEED[t][k][pair[0]] = (uint8_t)pair[1];
                T_WANTS[t][pair[0]] |= (uint8_t)(1 << k);
            }
            Py_DECREF(task);
        }
        Py_DECREF(tt);
    }
    Py_DECREF(ft);
    memset(main_ctx.grid, -1, sizeof main_ctx.grid);
    tiles_ready = 1;
    Py_RETURN_NONE;
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad tile data");
    return NULL;
}

/* search(display, wheel, meeple, phase, phase1_tiles, params, beam, budget, keep, allow_end)
 * -> (lines, evaluations). Each line: (value, moves, end display, end wheel, end meeple,
 * discs, cost); a move is (space, cell), or (-1, None) for "end phase 1". */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *display, *wheel_obj, *params;
    int meeple, phase, phase1_tiles, beam, keep, allow_end;
    long budget;
    if (!PyArg_ParseTuple(args, "OOiiiOilip", &display, &wheel_obj, &meeple, &phase,
                          &phase1_tiles, &params, &beam, &budget, &keep, &allow_end))
        return NULL;
    if (phase != 1 && phase != 2) {
        PyErr_SetString(PyExc_ValueError, "phase must be 1 or 2");
        return NULL;
    }
    Node root;
    uint8_t wheel[SPACES];
    float p[NPARAMS];
    if (!read_position(display, wheel_obj, meeple, &root, wheel) || !read_params(params, p))
        return NULL;
    Search s = {wheel, phase, phase1_tiles, root.n, p, beam < 1 ? 1 : beam, budget, 0,
                keep < 1 ? 1 : keep, allow_end, ctx_new()};
    NodeList done = {0};
    Path *paths = malloc((size_t)s.keep * sizeof(Path));
    if (!paths || !s.x) { free(paths); free(s.x); return PyErr_NoMemory(); }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = beam_search(&s, &root, &done, paths);
    Py_END_ALLOW_THREADS
    free(s.x);
    if (!ok) { free(done.nodes); free(paths); return PyErr_NoMemory(); }
    PyObject *lines = PyList_New(0);
    for (int i = 0; lines && i < done.n; i++) {
        Node *e = &done.nodes[i];
        PyObject *item = Py_BuildValue(
            "(dNNNiii)", (double)e->value, path_tuple(&paths[i]), display_tuple(e),
            wheel_tuple(wheel, e->taken), (int)e->meeple, (int)e->discs, (int)e->cost);
        if (!item || PyList_Append(lines, item) < 0) { Py_XDECREF(item); Py_CLEAR(lines); break; }
        Py_DECREF(item);
    }
    free(done.nodes);
    free(paths);
    if (!lines) return NULL;
    return Py_BuildValue("(Nl)", lines, s.used);
}

/* Refill the wheel between the phases: every empty space but the meeple's,
 * clockwise from the meeple, from `order` (the sampled draw pile). */
static void refill(uint8_t wheel[SPACES], int meeple, const int *order, int norder) {
    int next = 0;
    for (int k = 1; k < SPACES; k++) {
        int s = (meeple + k) % SPACES;
        if (!wheel[s] && next < norder) wheel[s] = (uint8_t)order[next++];
    }
}

/* ---- phase-2 scores of phase-1 end states over sampled refills ------------------- */

#define SAMPLE_BATCH 8 /* samples started together; fixed, so results never depend on threads */

typedef struct {
    const Node *roots;
    const uint8_t (*wheels)[SPACES];
    const int (*ord)[68];
    const int *nord;
    int no;
    const float *p;
    int beam;
    double *scores; /* by job: end i, order j at i * no + j */
} Samples;

typedef struct {
    const Samples *all;
    long first, stop; /* the batch */
    int stride, offset;
    Ctx *x;
    long used;
    int ok;
} Worker;

/* The phase-2 score of one end state after one sampled refill. */
static int sample_one(const Samples *a, long job, Ctx *x, long *used, double *score) {
    int i = (int)(job / a->no), j = (int)(job % a->no);
    const Node *root = &a->roots[i];
    if (root->discs >= DISCS) {
        *score = phase2_score(root->cost, root->discs);
        return 1;
    }
    uint8_t w[SPACES];
    memcpy(w, a->wheels[i], sizeof w);
    refill(w, root->meeple, a->ord[j], a->nord[j]);
    /* a sample is never cut short: a narrower search would bias it */
    Search s = {w, 2, 0, root->n, a->p, a->beam, LONG_MAX, 0, 1, 0, x};
    NodeList done = {0};
    int ok = beam_search(&s, root, &done, NULL);
    *used += s.used;
    *score = done.n ? done.nodes[0].value : phase2_score(root->cost, root->discs);
    free(done.nodes);
    return ok;
}

static void *worker_run(void *arg) {
    Worker *w = arg;
    for (long job = w->first + w->offset; job < w->stop && w->ok; job += w->stride)
        w->ok = sample_one(w->all, job, w->x, &w->used, &w->all->scores[job]);
    return NULL;
}

/* Runs the samples in batches until the jobs or the budget run out; returns the jobs
 * done (a prefix), or -1 on a memory error. */
static long run_samples(const Samples *a, long jobs, long budget, int threads, long *used) {
    Worker w[SAMPLE_BATCH];
    pthread_t tid[SAMPLE_BATCH];
    int ok = 1;
    for (int t = 0; t < threads; t++) {
        w[t] = (Worker){a, 0, 0, threads, t, ctx_new(), 0, 1};
        ok &= w[t].x != NULL;
    }
    long next = 0;
    while (ok && next < jobs && *used < budget) {
        long stop = next + SAMPLE_BATCH < jobs ? next + SAMPLE_BATCH : jobs;
        int started[SAMPLE_BATCH] = {0};
        for (int t = 0; t < threads; t++) {
            w[t].first = next;
            w[t].stop = stop;
            w[t].used = 0;
        }
        /* share 0 runs on this thread; the others on threads of their own, or here
         * too if no thread is to be had */
        for (int t = 1; t < threads; t++)
            started[t] = pthread_create(&tid[t], NULL, worker_run, &w[t]) == 0;
        for (int t = 0; t < threads; t++)
            if (!started[t]) worker_run(&w[t]);
        for (int t = 1; t < threads; t++)
            if (started[t]) pthread_join(tid[t], NULL);
        for (int t = 0; t < threads; t++) {
            *used += w[t].used;
            ok &= w[t].ok;
        }
        next = stop;
    }
    for (int t = 0; t < threads; t++) free(w[t].x);
    return ok ? next : -1;
}

/* phase2_scores(ends, orders, params, beam, budget, threads=1) -> (scores, evaluations).
 * ends: [(display, wheel, meeple), ...] at the end of phase 1; orders: sampled draw
 * piles (tile ids). scores[i][j]: the phase-2 score of the best phase-2 line found
 * for end i after the refill from order j. Samples go end by end, order by order, in
 * batches of SAMPLE_BATCH, and no batch starts once `budget` evaluations are spent,
 * so a row may be shorter than `orders`. `threads` only changes the speed. */
static PyObject *py_phase2_scores(PyObject *self, PyObject *args) {
    PyObject *ends, *orders, *params;
    int beam, threads = 1;
    long budget;
    if (!PyArg_ParseTuple(args, "OOOil|i", &ends, &orders, &params, &beam, &budget, &threads))
        return NULL;
    if (threads < 1) threads = 1;
    if (threads > SAMPLE_BATCH) threads = SAMPLE_BATCH; /* more would have no sample */
    float p[NPARAMS];
    if (!read_params(params, p)) return NULL;
    PyObject *fe = PySequence_Fast(ends, "ends must be a sequence");
    if (!fe) return NULL;
    PyObject *fo = PySequence_Fast(orders, "orders must be a sequence");
    if (!fo) { Py_DECREF(fe); return NULL; }
    Py_ssize_t ne = PySequence_Fast_GET_SIZE(fe), no = PySequence_Fast_GET_SIZE(fo);
    int (*ord)[68] = malloc((size_t)(no ? no : 1) * sizeof *ord);
    int *nord = malloc((size_t)(no ? no : 1) * sizeof(int));
    Node *roots = malloc((size_t)(ne ? ne : 1) * sizeof(Node));
    uint8_t (*wheels)[SPACES] = malloc((size_t)(ne ? ne : 1) * sizeof *wheels);
    double *scores = malloc((size_t)(ne > 0 && no > 0 ? ne * no : 1) * sizeof(double));
    PyObject *result = NULL;
    long used = 0;
    if (!ord || !nord || !roots || !wheels || !scores) { PyErr_NoMemory(); goto out; }
    for (Py_ssize_t j = 0; j < no; j++) {
        nord[j] = read_ints(PySequence_Fast_GET_ITEM(fo, j), ord[j], 68, "an order of tile ids");
        if (nord[j] < 0) goto out;
        for (int k = 0; k < nord[j]; k++)
            if (ord[j][k] < 1 || ord[j][k] >= NTILES) {
                PyErr_SetString(PyExc_ValueError, "tile id out of range");
                goto out;
            }
    }
    for (Py_ssize_t i = 0; i < ne; i++) {
        PyObject *end = PySequence_Fast_GET_ITEM(fe, i);
        PyObject *disp, *wh;
        int meeple;
        if (!PyArg_ParseTuple(end, "OOi", &disp, &wh, &meeple)) goto out;
        if (!read_position(disp, wh, meeple, &roots[i], wheels[i])) goto out;
    }
    Samples all = {roots, (const uint8_t (*)[SPACES])wheels, (const int (*)[68])ord, nord,
                   (int)no, p, beam < 1 ? 1 : beam, scores};
    long done;
    Py_BEGIN_ALLOW_THREADS
    done = run_samples(&all, (long)(ne * no), budget, threads, &used);
    Py_END_ALLOW_THREADS
    if (done < 0) { PyErr_NoMemory(); goto out; }
    result = PyList_New(ne);
    for (Py_ssize_t i = 0; result && i < ne; i++) {
        long have = done - (long)(i * no);
        have = have < 0 ? 0 : (have > no ? (long)no : have);
        PyObject *row = PyList_New(have);
        if (!row) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, row);
        for (long j = 0; j < have; j++) {
            PyObject *value = PyFloat_FromDouble(scores[i * no + j]);
            if (!value) { Py_CLEAR(result); break; }
            PyList_SET_ITEM(row, j, value);
        }
    }
out:
    free(ord);
    free(nord);
    free(roots);
    free(wheels);
    free(scores);
    Py_DECREF(fe);
    Py_DECREF(fo);
    if (!result) return NULL;
    return Py_BuildValue("(Nl)", result, used);
}

static PyObject *empty_wheel(void) {
    PyObject *w = PyTuple_New(SPACES);
    for (int s = 0; w && s < SPACES; s++) PyTuple_SET_ITEM(w, s, PyLong_FromLong(0));
    return w;
}

/* counts(display) -> (fulfilled tasks, open tasks 1, 2, 3, 4+ tiles short). For tests. */
static PyObject *py_counts(PyObject *self, PyObject *display) {
    Node root;
    uint8_t wheel[SPACES];
    PyObject *w = empty_wheel();
    if (!w) return NULL;
    int ok = read_position(display, w, 0, &root, wheel);
    Py_DECREF(w);
    if (!ok) return NULL;
    return Py_BuildValue("(iiiii)", (int)root.discs, (int)root.g[0], (int)root.g[1],
                         (int)root.g[2], (int)root.g[3]);
}

/* gain(display, tile, cell) -> (tasks fulfilled by laying tile on cell, and the change
 * in open tasks 1, 2, 3, 4+ short), as the search computes it. For tests. */
static PyObject *py_gain(PyObject *self, PyObject *args) {
    PyObject *display;
    int tile;
    long cell;
    if (!PyArg_ParseTuple(args, "Oil", &display, &tile, &cell)) return NULL;
    Node root;
    uint8_t wheel[SPACES];
    PyObject *w = empty_wheel();
    if (!w) return NULL;
    int ok = read_position(display, w, 0, &root, wheel);
    Py_DECREF(w);
    if (!ok) return NULL;
    int c = cell_from_py(cell);
    if (c < 0 || tile < 1 || tile >= NTILES) {
        PyErr_SetString(PyExc_ValueError, "cell or tile out of range");
        return NULL;
    }
    load(&main_ctx, &root);
    int frontier = 0;
    for (int f = 0; f < main_ctx.nfront; f++) frontier |= main_ctx.front[f] == c;
    int dg[5], gained = 0;
    if (frontier) gained = child_eval(&main_ctx, tile, c, dg);
    unload(&main_ctx);
    if (!frontier) {
        PyErr_SetString(PyExc_ValueError, "cell is not on the display's frontier");
        return NULL;
    }
    return Py_BuildValue("(iiiii)", gained, dg[1], dg[2], dg[3], dg[4]);
}

static PyMethodDef methods[] = {
    {"setup_tiles", py_setup_tiles, METH_VARARGS,
     "setup_tiles(colors, costs, tasks): the tile data, indexed by tile id."},
    {"search", py_search, METH_VARARGS,
     "search(display, wheel, meeple, phase, phase1_tiles, params, beam, budget, keep, "
     "allow_end) -> (lines, evaluations)"},
    {"counts", py_counts, METH_O,
     "counts(display) -> (fulfilled, open 1 short, 2 short, 3 short, 4+ short)"},
    {"gain", py_gain, METH_VARARGS,
     "gain(display, tile, cell) -> (fulfilled now, change in open 1, 2, 3, 4+ short)"},
    {"phase2_scores", py_phase2_scores, METH_VARARGS,
     "phase2_scores(ends, orders, params, beam, budget, threads=1) -> (scores, evaluations)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solokernel",
                                    "The solo planner's search kernel.", -1, methods};

PyMODINIT_FUNC PyInit__solokernel(void) { return PyModule_Create(&module); }
