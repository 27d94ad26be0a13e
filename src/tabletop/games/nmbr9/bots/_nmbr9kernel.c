/*
 * _nmbr9kernel.c -- search kernel for a NMBR 9 bot (CPython extension, C11).
 *
 * Layout of this file
 *   1. tile shapes (set by setup_tiles() from the package's tiles.json) and their rotations
 *   2. the board: per-level occupancy bitboards in a 128x128 window
 *   3. move generation (exact rules, bit-parallel per board row)
 *   4. the hand-written evaluation (cheap incremental part + "dead cell" part)
 *   5. policies: greedy baseline, 1-ply heuristic, Monte Carlo planner
 *   6. Python bindings: legal_placements, choose, solo_scores, ...
 *
 * Coordinates: x to the right, y downwards, exactly as in the rules.  The
 * Python side always sees absolute table coordinates; inside, a board keeps a
 * window origin (ox, oy) and every bitboard index is window = absolute - o.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* The shapes as drawn in tiles.json ('#' a square), set once by setup_tiles():
 * the data file stays the only place they are written down. */
#define TILE_MAXROWS 8
#define TILE_MAXCOLS 8
static int TILE_NROWS[10];
static char TILE_ROWS[10][TILE_MAXROWS][TILE_MAXCOLS + 1];
static int tiles_ready = 0;

#if defined(__GNUC__) || defined(__clang__)
#define POPC(v) __builtin_popcountll(v)
#define CTZ(v) __builtin_ctzll(v)
#else
static int POPC(uint64_t v) { int c = 0; while (v) { v &= v - 1; c++; } return c; }
static int CTZ(uint64_t v) { int c = 0; while (!(v & 1)) { v >>= 1; c++; } return c; }
#endif

/* ------------------------------------------------------------------ */
/* 1. Shapes                                                          */
/* ------------------------------------------------------------------ */

#define MAXSQ 16
typedef struct {
    int n, w, h;     /* squares, bounding box */
    int per;         /* perimeter in unit edges (used by the evaluation) */
    int8_t dx[MAXSQ], dy[MAXSQ];
} Shape;

static Shape SH[10][4];   /* SH[d][r] for every r (duplicates included)      */
static int NR[10];        /* number of distinct rotations of digit d         */
static int RV[10][4];     /* the r value of the i-th distinct rotation        */
static int NSQ[10];       /* squares per digit                               */

/* Coverage lists for the dead-cell feature: for a set of digits (bitmask)
 * the rotated shapes that matter for "can some future tile cover this
 * square".  A shape B is dropped when another digit A in the set covers
 * every square of B with placements of A lying inside B (then A's coverage
 * is a superset of B's). */
typedef struct { int n; int8_t d[40], r[40]; } CovList;
static CovList COV[1024];

static int shape_has(const Shape *s, int x, int y) {
    for (int i = 0; i < s->n; i++) if (s->dx[i] == x && s->dy[i] == y) return 1;
    return 0;
}

static void shape_finish(Shape *s) {
    /* normalise to a top-left anchored box and sort squares row-major so two
     * rotations can be compared square by square */
    int mx = 99, my = 99, Mx = -99, My = -99;
    for (int i = 0; i < s->n; i++) {
        if (s->dx[i] < mx) mx = s->dx[i];
        if (s->dy[i] < my) my = s->dy[i];
    }
    for (int i = 0; i < s->n; i++) { s->dx[i] -= mx; s->dy[i] -= my; }
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0; j--) {
            int a = s->dy[j - 1] * 16 + s->dx[j - 1], b = s->dy[j] * 16 + s->dx[j];
            if (a > b) {
                int8_t t = s->dx[j]; s->dx[j] = s->dx[j - 1]; s->dx[j - 1] = t;
                t = s->dy[j]; s->dy[j] = s->dy[j - 1]; s->dy[j - 1] = t;
            }
        }
    for (int i = 0; i < s->n; i++) {
        if (s->dx[i] > Mx) Mx = s->dx[i];
        if (s->dy[i] > My) My = s->dy[i];
    }
    s->w = Mx + 1; s->h = My + 1;
    int adj = 0;
    for (int i = 0; i < s->n; i++) {
        adj += shape_has(s, s->dx[i] + 1, s->dy[i]);
        adj += shape_has(s, s->dx[i], s->dy[i] + 1);
    }
    s->per = 4 * s->n - 2 * adj;
}

/* does digit a (any rotation) cover every square of shape b using
 * placements that lie completely inside b? */
static int digit_covers_shape(int a, const Shape *b) {
    int cov[MAXSQ] = {0};
    for (int ri = 0; ri < NR[a]; ri++) {
        const Shape *s = &SH[a][RV[a][ri]];
        for (int oy = 0; oy + s->h <= b->h; oy++)
            for (int ox = 0; ox + s->w <= b->w; ox++) {
                int inside = 1;
                for (int i = 0; i < s->n && inside; i++)
                    inside = shape_has(b, s->dx[i] + ox, s->dy[i] + oy);
                if (!inside) continue;
                for (int i = 0; i < s->n; i++)
                    for (int j = 0; j < b->n; j++)
                        if (b->dx[j] == s->dx[i] + ox && b->dy[j] == s->dy[i] + oy) cov[j] = 1;
            }
    }
    for (int j = 0; j < b->n; j++) if (!cov[j]) return 0;
    return 1;
}

static int shapes_init(void) {
    for (int d = 0; d < 10; d++) {
        Shape base; memset(&base, 0, sizeof base);
        int nr = TILE_NROWS[d];
        for (int y = 0; y < nr; y++) {
            const char *row = TILE_ROWS[d][y];
            for (int x = 0; row[x]; x++)
                if (row[x] == '#') {
                    if (base.n >= MAXSQ) return -1;
                    base.dx[base.n] = (int8_t)x; base.dy[base.n] = (int8_t)y; base.n++;
                }
        }
        shape_finish(&base);
        if (base.w > 4 || base.h > 4) return -1;   /* window margins assume <= 4 */
        NSQ[d] = base.n;
        SH[d][0] = base;
        for (int r = 1; r < 4; r++) {
            /* one clockwise quarter turn (y down): (x, y) -> (h-1-y, x) */
            const Shape *p = &SH[d][r - 1];
            Shape s = *p;
            for (int i = 0; i < p->n; i++) {
                s.dx[i] = (int8_t)(p->h - 1 - p->dy[i]);
                s.dy[i] = p->dx[i];
            }
            shape_finish(&s);
            SH[d][r] = s;
        }
        NR[d] = 0;
        for (int r = 0; r < 4; r++) {
            int dup = 0;
            for (int q = 0; q < NR[d] && !dup; q++) {
                const Shape *a = &SH[d][RV[d][q]], *b = &SH[d][r];
                if (a->w == b->w && a->h == b->h &&
                    !memcmp(a->dx, b->dx, (size_t)a->n) && !memcmp(a->dy, b->dy, (size_t)a->n))
                    dup = 1;
            }
            if (!dup) RV[d][NR[d]++] = r;
        }
    }
    /* dominance table: dom[d][r] = digits whose placements cover shape (d,r) */
    int dom[10][4];
    for (int d = 0; d < 10; d++)
        for (int ri = 0; ri < NR[d]; ri++) {
            int r = RV[d][ri]; dom[d][r] = 0;
            for (int a = 0; a < 10; a++)
                if (a != d && NSQ[a] < NSQ[d] && digit_covers_shape(a, &SH[d][r]))
                    dom[d][r] |= 1 << a;
        }
    for (int m = 0; m < 1024; m++) {
        CovList *c = &COV[m]; c->n = 0;
        for (int d = 0; d < 10; d++) {
            if (!(m >> d & 1)) continue;
            for (int ri = 0; ri < NR[d]; ri++) {
                int r = RV[d][ri];
                if (dom[d][r] & m) continue;
                c->d[c->n] = (int8_t)d; c->r[c->n] = (int8_t)r; c->n++;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* 2. Board                                                           */
/* ------------------------------------------------------------------ */

/* Window of 128x128 squares, rows of two 64-bit words.  A real game's
 * level-0 footprint spans at most 4 + 19*4 = 80 squares in any direction
 * (every new level-0 tile touches an old one, so it extends the bounding box
 * by at most its own size <= 4), so a recentred 128 window always holds the
 * footprint plus the 4-square margin that new placements need.  Tiles on
 * higher levels lie on the footprint and never widen it. */
#define WIN 128
#define MARGIN 6
#define MAXLEV 16
#define MAXT 32

typedef struct { uint64_t lo, hi; } R2;

static inline R2 r2_shr(R2 a, int s) {
    if (!s) return a;
    R2 o; o.lo = (a.lo >> s) | (a.hi << (64 - s)); o.hi = a.hi >> s; return o;
}
static inline R2 r2_shl(R2 a, int s) {
    if (!s) return a;
    R2 o; o.hi = (a.hi << s) | (a.lo >> (64 - s)); o.lo = a.lo << s; return o;
}
static inline R2 r2_and(R2 a, R2 b) { R2 o = {a.lo & b.lo, a.hi & b.hi}; return o; }
static inline R2 r2_or(R2 a, R2 b) { R2 o = {a.lo | b.lo, a.hi | b.hi}; return o; }
static inline R2 r2_andn(R2 a, R2 b) { R2 o = {a.lo & ~b.lo, a.hi & ~b.hi}; return o; }
static inline int r2_pop(R2 a) { return POPC(a.lo) + POPC(a.hi); }
static inline int r2_any(R2 a) { return (a.lo | a.hi) != 0; }
static inline int r2_get(R2 a, int x) { return (int)(((x < 64 ? a.lo : a.hi) >> (x & 63)) & 1); }
static inline void r2_set(R2 *a, int x) { if (x < 64) a->lo |= 1ULL << x; else a->hi |= 1ULL << (x - 64); }
static inline void r2_flip(R2 *a, int x) { if (x < 64) a->lo ^= 1ULL << x; else a->hi ^= 1ULL << (x - 64); }

typedef struct { int8_t d, r, lev; int x, y; } TileRec;   /* absolute coordinates */

typedef struct {
    int nt, nlev, score, ox, oy;
    int cnt[MAXLEV];            /* tiles per level */
    int rlo[MAXLEV], rhi[MAXLEV]; /* window rows spanned by level k tiles */
    int xlo0, xhi0;             /* window columns spanned by level 0 */
    TileRec t[MAXT];
    R2 occ[MAXLEV][WIN];        /* occ[k][y]: squares covered by a level-k tile */
    uint8_t top[WIN][WIN];      /* 1 + index of the topmost tile on a square */
} Board;

static void board_clear(Board *b, int ox, int oy) {
    memset(b, 0, sizeof *b);
    b->ox = ox; b->oy = oy;
    for (int k = 0; k < MAXLEV; k++) { b->rlo[k] = WIN; b->rhi[k] = -1; }
    b->xlo0 = WIN; b->xhi0 = -1;
}

/* S_k = squares of height exactly k = covered on level k-1, not on level k */
static inline R2 surf(const Board *b, int k, int y) {
    return r2_andn(b->occ[k - 1][y], b->occ[k][y]);
}

static int board_recenter(Board *b);

/* place a tile at window coordinates; returns -1 if the board cannot be
 * represented (never for real games) */
static int board_place(Board *b, int d, int r, int wx, int wy, int lev) {
    const Shape *s = &SH[d][r];
    if (b->nt >= MAXT || lev < 0 || lev >= MAXLEV - 1) return -1;
    int id = b->nt;
    for (int i = 0; i < s->n; i++) {
        int x = wx + s->dx[i], y = wy + s->dy[i];
        r2_set(&b->occ[lev][y], x);
        b->top[y][x] = (uint8_t)(id + 1);
    }
    TileRec *t = &b->t[id];
    t->d = (int8_t)d; t->r = (int8_t)r; t->lev = (int8_t)lev;
    t->x = wx + b->ox; t->y = wy + b->oy;
    b->nt++;
    b->cnt[lev]++;
    if (lev + 1 > b->nlev) b->nlev = lev + 1;
    b->score += d * lev;
    if (wy < b->rlo[lev]) b->rlo[lev] = wy;
    if (wy + s->h - 1 > b->rhi[lev]) b->rhi[lev] = wy + s->h - 1;
    if (lev == 0) {
        if (wx < b->xlo0) b->xlo0 = wx;
        if (wx + s->w - 1 > b->xhi0) b->xhi0 = wx + s->w - 1;
        if (b->xlo0 < MARGIN || b->xhi0 > WIN - 1 - MARGIN ||
            b->rlo[0] < MARGIN || b->rhi[0] > WIN - 1 - MARGIN)
            return board_recenter(b);
    }
    return 0;
}

/* move the window so the footprint is centred; rebuilds from the tile list */
static int board_recenter(Board *b) {
    int axl = 1 << 30, axh = -(1 << 30), ayl = 1 << 30, ayh = -(1 << 30);
    int nt = b->nt;
    TileRec tl[MAXT];
    memcpy(tl, b->t, sizeof(TileRec) * (size_t)nt);
    for (int i = 0; i < nt; i++) {
        const Shape *s = &SH[tl[i].d][tl[i].r];
        if (tl[i].x < axl) axl = tl[i].x;
        if (tl[i].x + s->w - 1 > axh) axh = tl[i].x + s->w - 1;
        if (tl[i].y < ayl) ayl = tl[i].y;
        if (tl[i].y + s->h - 1 > ayh) ayh = tl[i].y + s->h - 1;
    }
    if (axh - axl + 1 > WIN - 2 * MARGIN - 2 || ayh - ayl + 1 > WIN - 2 * MARGIN - 2) return -1;
    int ox = (axl + axh) / 2 - WIN / 2, oy = (ayl + ayh) / 2 - WIN / 2;
    board_clear(b, ox, oy);
    for (int i = 0; i < nt; i++)
        if (board_place(b, tl[i].d, tl[i].r, tl[i].x - ox, tl[i].y - oy, tl[i].lev)) return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* 3. Move generation                                                 */
/* ------------------------------------------------------------------ */

typedef struct { int8_t r, lev; int16_t x, y; } Move;   /* window coordinates */
#define MAXMOVES 20000

/* All distinct legal placements of digit d.  Per board row and rotation the
 * set of x positions where the tile fits is AND over the tile's squares of
 * the free/surface row shifted by the square's dx, so a whole row of
 * candidate anchors is tested with ~10 word operations. */
static int gen_moves(const Board *b, int d, Move *out, int cap) {
    int n = 0;
    if (b->nt == 0) {   /* first tile: anywhere; listed at absolute (0, 0) */
        for (int ri = 0; ri < NR[d] && n < cap; ri++) {
            Move m = {(int8_t)RV[d][ri], 0, (int16_t)(0 - b->ox), (int16_t)(0 - b->oy)};
            out[n++] = m;
        }
        return n;
    }
    R2 F[WIN], N[WIN];
    /* level 0: free squares F and free squares edge-adjacent to level 0, N */
    {
        int y0 = b->rlo[0] - 5, y1 = b->rhi[0] + 5;
        for (int y = y0; y <= y1; y++) {
            R2 o = b->occ[0][y];
            F[y].lo = ~o.lo; F[y].hi = ~o.hi;
            R2 nb = r2_or(r2_or(r2_shl(o, 1), r2_shr(o, 1)), r2_or(b->occ[0][y - 1], b->occ[0][y + 1]));
            N[y] = r2_andn(nb, o);
        }
        for (int ri = 0; ri < NR[d]; ri++) {
            const Shape *s = &SH[d][RV[d][ri]];
            for (int y = b->rlo[0] - s->h; y <= b->rhi[0] + 1; y++) {
                R2 fit = {~0ULL, ~0ULL}, adj = {0, 0};
                for (int i = 0; i < s->n; i++) {
                    fit = r2_and(fit, r2_shr(F[y + s->dy[i]], s->dx[i]));
                    adj = r2_or(adj, r2_shr(N[y + s->dy[i]], s->dx[i]));
                }
                fit = r2_and(fit, adj);
                for (int wd = 0; wd < 2; wd++) {
                    uint64_t v = wd ? fit.hi : fit.lo;
                    while (v) {
                        int x = wd * 64 + CTZ(v); v &= v - 1;
                        if (n < cap) { Move m = {(int8_t)RV[d][ri], 0, (int16_t)x, (int16_t)y}; out[n] = m; }
                        n++;
                    }
                }
            }
        }
    }
    /* level k >= 1: every square on S_k, at least two tiles below, and touch
     * a level-k tile if level k is already started */
    int kmax = b->nlev < MAXLEV - 2 ? b->nlev : MAXLEV - 2;
    for (int k = 1; k <= kmax; k++) {
        if (b->cnt[k - 1] < 2) continue;
        int y0 = b->rlo[k - 1], y1 = b->rhi[k - 1];
        int needadj = b->cnt[k] > 0;
        for (int y = y0; y <= y1; y++) {
            F[y] = surf(b, k, y);
            if (needadj) {
                R2 o = b->occ[k][y];
                R2 nb = r2_or(r2_or(r2_shl(o, 1), r2_shr(o, 1)), r2_or(b->occ[k][y - 1], b->occ[k][y + 1]));
                N[y] = r2_andn(nb, o);
            }
        }
        for (int ri = 0; ri < NR[d]; ri++) {
            const Shape *s = &SH[d][RV[d][ri]];
            for (int y = y0; y + s->h - 1 <= y1; y++) {
                R2 fit = {~0ULL, ~0ULL}, adj = {0, 0};
                for (int i = 0; i < s->n; i++) {
                    fit = r2_and(fit, r2_shr(F[y + s->dy[i]], s->dx[i]));
                    if (needadj) adj = r2_or(adj, r2_shr(N[y + s->dy[i]], s->dx[i]));
                }
                if (needadj) fit = r2_and(fit, adj);
                for (int wd = 0; wd < 2; wd++) {
                    uint64_t v = wd ? fit.hi : fit.lo;
                    while (v) {
                        int x = wd * 64 + CTZ(v); v &= v - 1;
                        /* at least two different tiles underneath */
                        int id0 = b->top[y + s->dy[0]][x + s->dx[0]], two = 0;
                        for (int i = 1; i < s->n && !two; i++)
                            two = b->top[y + s->dy[i]][x + s->dx[i]] != id0;
                        if (!two) continue;
                        if (n < cap) { Move m = {(int8_t)RV[d][ri], (int8_t)k, (int16_t)x, (int16_t)y}; out[n] = m; }
                        n++;
                    }
                }
            }
        }
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* 4. Evaluation                                                      */
/* ------------------------------------------------------------------ */

/* Weight vector.  Every weight is a + b * (R / 19), R = rounds left after
 * the move being judged, so the value of future surface fades out as the
 * game ends.  Level indices are clamped (levels >= 4 share the level-4
 * weights, perimeters >= 3 share level 3).
 *   [0..3]   area of S_k, k = 1..4, constant part     [4..7]  R part
 *   [8..11]  perimeter of footprint (k=0) and S_1..S_3 [12..15] R part
 *   [16..19] dead (uncoverable) squares of S_1..S_4    [20..23] R part
 *   [24,25]  bounding box half perimeter of the footprint
 *   [26,27]  number of levels >= 1 holding exactly one tile
 *   [28]     saturation: coefficient of sum_k a_k^2 / (9 (R+1)) -- surface
 *            beyond what the R remaining tiles (~9 squares each) can use is
 *            worth less (a negative weight gives diminishing returns)
 *   [29]     digit mass: area weights are scaled by
 *            1 + w29 * (mean unturned digit - 4.5) / 4.5 (high cards left
 *            make upper surface more valuable)
 */
#define NW 30
static double DEFAULT_W[NW] = {
    /* tuned by tune.py (coordinate search) on seeds 1000..1599, 1-ply policy */
    0.2000, 0.0000, -0.2000, -0.8000,   0.4000, 0.8000, 1.1200, 1.5000,
    0.0000, 0.0000, 0.0000, 0.0000,   -0.1000, -0.1000, -0.1000, -0.1000,
    0.0000, 0.0000, 0.0000, -0.2000,   -0.2568, -0.6768, -1.1259, -1.2000,
    -0.0500, -0.0461,
    0.0000, -0.8920,
    0.0000, 0.0000,
};

typedef struct {
    double WA[MAXLEV + 2], WP[MAXLEV + 2], WD[MAXLEV + 2], Wbb, Ws, Q;
    int area[MAXLEV + 2];    /* current |S_k| */
} LevW;

static void make_levw(const double *w, int R, const int *rem, const Board *b, LevW *L) {
    double f = R / 19.0;
    int nr = 0, sr = 0;
    for (int q = 0; q < 10; q++) { nr += rem[q]; sr += q * rem[q]; }
    double dm = 1.0 + w[29] * ((nr ? (double)sr / nr : 4.5) - 4.5) / 4.5;
    L->Q = w[28] / (9.0 * (R + 1));
    for (int k = 0; k < MAXLEV + 2; k++) {
        L->area[k] = 0;
        if (k >= 1 && k - 1 < b->nlev && k < MAXLEV)
            for (int y = b->rlo[k - 1]; y <= b->rhi[k - 1]; y++) L->area[k] += r2_pop(surf(b, k, y));
    }
    for (int k = 0; k < MAXLEV + 2; k++) {
        int ka = k < 1 ? 1 : (k > 4 ? 4 : k);
        int kp = k > 3 ? 3 : k;
        L->WA[k] = k == 0 ? 0.0 : (w[ka - 1] + w[4 + ka - 1] * f) * dm;
        L->WP[k] = w[8 + kp] + w[12 + kp] * f;
        L->WD[k] = k == 0 ? 0.0 : w[16 + ka - 1] + w[20 + ka - 1] * f;
    }
    L->Wbb = w[24] + w[25] * f;
    L->Ws = w[26] + w[27] * f;
}

typedef struct {
    uint8_t nb0[WIN][WIN];   /* # of level-0 squares edge-adjacent */
    uint8_t nb1[WIN][WIN];   /* # of S_1 squares edge-adjacent */
    Move mv[MAXMOVES];
    double sc[MAXMOVES];
    Board tmp;
} Scratch;

/* neighbour-count grids around the footprint, so the perimeter change of a
 * level-0 candidate is 20 byte loads instead of 80 bit tests */
static void compute_grids(const Board *b, Scratch *sc) {
    int y0 = b->rlo[0] - 5, y1 = b->rhi[0] + 5, x0 = b->xlo0 - 5, x1 = b->xhi0 + 5;
    for (int y = y0; y <= y1; y++) {
        R2 s1m = surf(b, 1, y - 1);
        R2 s1 = surf(b, 1, y), s1p = surf(b, 1, y + 1);
        R2 om = b->occ[0][y - 1], o = b->occ[0][y], op = b->occ[0][y + 1];
        for (int x = x0; x <= x1; x++) {
            sc->nb0[y][x] = (uint8_t)(r2_get(om, x) + r2_get(op, x) + r2_get(o, x - 1) + r2_get(o, x + 1));
            sc->nb1[y][x] = (uint8_t)(r2_get(s1m, x) + r2_get(s1p, x) + r2_get(s1, x - 1) + r2_get(s1, x + 1));
        }
    }
}

static inline int nb_count(const Board *b, int k, int x, int y) {
    /* number of edge neighbours of (x,y) in S_k (k>=1) */
    return r2_get(surf(b, k, y - 1), x) + r2_get(surf(b, k, y + 1), x) +
           r2_get(surf(b, k, y), x - 1) + r2_get(surf(b, k, y), x + 1);
}

static int count_singles(const Board *b) {
    int c = 0;
    for (int k = 1; k < b->nlev; k++) c += b->cnt[k] == 1;
    return c;
}

/* Cheap evaluation of a candidate: exact change of score, of the exposed
 * area per level and of the perimeters, of the footprint bounding box, of
 * the single-tile levels.  Relative to the current state (constants drop
 * out of the argmax). */
static double eval_cheap(const Board *b, int d, const Move *m, const LevW *L, const Scratch *sc) {
    const Shape *s = &SH[d][m->r];
    int k = m->lev;
    if (k == 0) {
        if (b->nt == 0) return 0.0;
        int s0 = 0, s1 = 0;
        for (int i = 0; i < s->n; i++) {
            int x = m->x + s->dx[i], y = m->y + s->dy[i];
            s0 += sc->nb0[y][x]; s1 += sc->nb1[y][x];
        }
        int bx0 = m->x < b->xlo0 ? m->x : b->xlo0, bx1 = m->x + s->w - 1 > b->xhi0 ? m->x + s->w - 1 : b->xhi0;
        int by0 = m->y < b->rlo[0] ? m->y : b->rlo[0], by1 = m->y + s->h - 1 > b->rhi[0] ? m->y + s->h - 1 : b->rhi[0];
        int dbb = (bx1 - bx0 + by1 - by0) - (b->xhi0 - b->xlo0 + b->rhi[0] - b->rlo[0]);
        double a1 = L->area[1];
        return L->WA[1] * s->n + L->Q * ((a1 + s->n) * (a1 + s->n) - a1 * a1) + L->WP[0] * (s->per - 2 * s0) + L->WP[1] * (s->per - 2 * s1) + L->Wbb * dbb;
    }
    int nk = 0, nk1 = 0;
    for (int i = 0; i < s->n; i++) {
        int x = m->x + s->dx[i], y = m->y + s->dy[i];
        nk += nb_count(b, k, x, y);
        nk1 += nb_count(b, k + 1, x, y);
    }
    int dsingle = b->cnt[k] == 0 ? 1 : (b->cnt[k] == 1 ? -1 : 0);
    double ak = L->area[k], ak1 = L->area[k + 1];
    return d * k + (L->WA[k + 1] - L->WA[k]) * s->n
         + L->Q * ((ak - s->n) * (ak - s->n) - ak * ak + (ak1 + s->n) * (ak1 + s->n) - ak1 * ak1)
         + L->WP[k] * (s->per + 2 * nk - 8 * s->n)
         + L->WP[k + 1] * (s->per - 2 * nk1)
         + L->Ws * dsingle;
}

static int rem_mask(const int *rem) {
    int m = 0;
    for (int d = 0; d < 10; d++) if (rem[d] > 0) m |= 1 << d;
    return m;
}

/* Squares of S_k (rows y0..y1) that no tile of the digits in cov can cover:
 * erode S_k by each shape (fit positions) and dilate back (covered
 * squares).  This catches the 0's hole, one-square slivers, thin strips. */
static int dead_level(const Board *b, int k, int y0, int y1, const CovList *cov) {
    if (y1 < y0) return 0;
    /* Sx[dx][y] = S_k row y shifted right by dx, so a fit test is plain ANDs;
     * G[dy*4+dx][y] collects fit anchors of all shapes having a square at
     * (dx, dy), so the dilation back to covered squares needs one shift per
     * offset instead of one per shape square (~3x fewer operations). */
    R2 Sx[4][WIN], G[16][WIN];
    int used = 0;
    for (int y = y0; y <= y1; y++) {
        Sx[0][y] = surf(b, k, y);
        for (int dx = 1; dx < 4; dx++) Sx[dx][y] = r2_shr(Sx[0][y], dx);
    }
    for (int c = 0; c < cov->n; c++) {
        const Shape *s = &SH[cov->d[c]][cov->r[c]];
        for (int i = 0; i < s->n; i++) {
            int off = s->dy[i] * 4 + s->dx[i];
            if (!(used >> off & 1)) {
                used |= 1 << off;
                for (int y = y0; y <= y1; y++) G[off][y].lo = G[off][y].hi = 0;
            }
        }
        for (int y = y0; y + s->h - 1 <= y1; y++) {
            R2 fit = Sx[s->dx[0]][y + s->dy[0]];
            for (int i = 1; i < s->n; i++) fit = r2_and(fit, Sx[s->dx[i]][y + s->dy[i]]);
            if (!r2_any(fit)) continue;
            for (int i = 0; i < s->n; i++) {
                R2 *g = &G[s->dy[i] * 4 + s->dx[i]][y];
                g->lo |= fit.lo; g->hi |= fit.hi;
            }
        }
    }
    int dead = 0;
    for (int y = y0; y <= y1; y++) {
        R2 C = {0, 0};
        for (int off = 0; off < 16; off++) {
            if (!(used >> off & 1)) continue;
            int dy = off >> 2, dx = off & 3;
            if (y - dy < y0) continue;
            C = r2_or(C, r2_shl(G[off][y - dy], dx));
        }
        dead += r2_pop(r2_andn(Sx[0][y], C));
    }
    return dead;
}

/* dead-cell change of a candidate: apply it to the bitboards (XOR), measure
 * the two affected surfaces, undo.  dead_now caches the current values. */
static double eval_dead(Board *b, int d, const Move *m, const LevW *L, const CovList *cov, int *dead_now) {
    const Shape *s = &SH[d][m->r];
    int k = m->lev;
    double v = 0.0;
    /* rows that S_k / S_{k+1} can occupy before and after */
    int ty0 = m->y, ty1 = m->y + s->h - 1;
    for (int j = (k == 0 ? 1 : k); j <= k + 1; j++) {
        if (dead_now[j] < 0) {
            dead_now[j] = j - 1 < b->nlev ? dead_level(b, j, b->rlo[j - 1], b->rhi[j - 1], cov) : 0;
        }
    }
    for (int i = 0; i < s->n; i++) r2_flip(&b->occ[k][m->y + s->dy[i]], m->x + s->dx[i]);
    for (int j = (k == 0 ? 1 : k); j <= k + 1; j++) {
        int y0 = b->rlo[j - 1], y1 = b->rhi[j - 1];
        if (j - 1 == k) { if (ty0 < y0) y0 = ty0; if (ty1 > y1) y1 = ty1; }
        int after = dead_level(b, j, y0, y1, cov);
        v += L->WD[j] * (after - dead_now[j]);
    }
    for (int i = 0; i < s->n; i++) r2_flip(&b->occ[k][m->y + s->dy[i]], m->x + s->dx[i]);
    return v;
}

/* ------------------------------------------------------------------ */
/* 4b. Features of a position and the learned value                   */
/* ------------------------------------------------------------------ */

/* The evaluation's features of a whole board (absolute, not a move's change),
 * clamped to levels as make_levw clamps its weights, so a linear value in them
 * maps one to one onto the weight vector above (learning/model.py does):
 *   [0..3]   area of S_1, S_2, S_3, S_4 and up
 *   [4..7]   perimeter of the footprint, of S_1, S_2, S_3 and up
 *   [8..11]  dead (uncoverable by the unturned digits) squares of S_1..S_3, S_4 and up
 *   [12]     bounding box half perimeter of the footprint
 *   [13]     levels >= 1 holding exactly one tile */
#define NF 14
/* The learned value of a position with R cards to come (learning/model.py):
 *   v = sum_i (a_i + b_i R/19) phi_i + c_R + sum_q e_q remaining_q
 *   [0..13] a, [14..27] b, [28..48] c_R for R = 0..20, [49..58] e */
#define NVAL 59

static int row_perimeter(R2 up, R2 row, R2 down) {
    /* unit edges of row's squares that face a square outside the set */
    return r2_pop(r2_andn(row, r2_shl(row, 1))) + r2_pop(r2_andn(row, r2_shr(row, 1))) +
           r2_pop(r2_andn(row, up)) + r2_pop(r2_andn(row, down));
}

static void board_features(const Board *b, const int *rem, double *phi) {
    for (int i = 0; i < NF; i++) phi[i] = 0.0;
    if (b->nt == 0) return;
    for (int y = b->rlo[0]; y <= b->rhi[0]; y++)
        phi[4] += row_perimeter(b->occ[0][y - 1], b->occ[0][y], b->occ[0][y + 1]);
    const CovList *cov = &COV[rem_mask(rem)];
    for (int k = 1; k <= b->nlev && k < MAXLEV; k++) {
        int y0 = b->rlo[k - 1], y1 = b->rhi[k - 1], ka = (k > 4 ? 4 : k) - 1, kp = k > 3 ? 3 : k;
        for (int y = y0; y <= y1; y++) {
            R2 row = surf(b, k, y);
            phi[ka] += r2_pop(row);
            phi[4 + kp] += row_perimeter(surf(b, k, y - 1), row, surf(b, k, y + 1));
        }
        phi[8 + ka] += dead_level(b, k, y0, y1, cov);
    }
    phi[12] = (b->xhi0 - b->xlo0) + (b->rhi[0] - b->rlo[0]);
    phi[13] = count_singles(b);
}

static double board_value(const Board *b, int R, const int *rem, const double *vm) {
    double phi[NF], f = R / 19.0, v = vm[28 + (R < 0 ? 0 : (R > 20 ? 20 : R))];
    board_features(b, rem, phi);
    for (int i = 0; i < NF; i++) v += (vm[i] + vm[NF + i] * f) * phi[i];
    for (int q = 0; q < 10; q++) v += vm[49 + q] * rem[q];
    return v;
}

/* ------------------------------------------------------------------ */
/* 5. Policies                                                        */
/* ------------------------------------------------------------------ */

enum { MODE_GREEDY = 0, MODE_HEUR = 1, MODE_MC = 2 };

typedef struct {
    int mode;
    int ncand;      /* root candidates kept for Monte Carlo */
    int k0;         /* samples per candidate in the first halving stage */
    int stages;     /* successive-halving stages */
    int topm;       /* rollout policy: candidates re-ranked with dead cells */
    int roottopm;   /* root: candidates re-ranked with dead cells */
    int threads;
    int horizon;    /* rollouts stop after this many cards and add the learned
                     * value (0: play to the end of the game) */
    double w[NW];       /* rollout policy */
    double wroot[NW];   /* root candidate ranking */
    double vm[NVAL];    /* learned value (used only with a horizon) */
} Settings;

/* Rank the n moves in sc->mv by the heuristic; writes full scores of the
 * best min(n, topm) into order[0..] (sorted best first) and returns how many
 * were ranked with the full evaluation. order[] holds indices into sc->mv. */
static int rank_moves(Board *b, int d, const int *rem, int R, const double *w, int topm,
                      Scratch *sc, int n, int *order, double *fullv) {
    LevW L; make_levw(w, R, rem, b, &L);
    compute_grids(b, sc);
    for (int i = 0; i < n; i++) sc->sc[i] = eval_cheap(b, d, &sc->mv[i], &L, sc);
    if (topm < 1) topm = 1;
    if (topm > n) topm = n;
    /* partial selection of the topm best cheap scores (stable: lower index
     * wins ties, so the result is deterministic) */
    int m = 0;
    for (int i = 0; i < n; i++) {
        double v = sc->sc[i];
        if (m == topm && !(v > sc->sc[order[m - 1]])) continue;
        int j = m < topm ? m++ : m - 1;
        while (j > 0 && v > sc->sc[order[j - 1]]) { order[j] = order[j - 1]; j--; }
        order[j] = i;
    }
    const CovList *cov = &COV[rem_mask(rem)];
    int dead_now[MAXLEV + 2];
    for (int j = 0; j < MAXLEV + 2; j++) dead_now[j] = -1;
    for (int i = 0; i < m; i++) {
        fullv[i] = sc->sc[order[i]];
        if (m > 1) fullv[i] += eval_dead(b, d, &sc->mv[order[i]], &L, cov, dead_now);
    }
    /* insertion sort by full value (stable) */
    for (int i = 1; i < m; i++) {
        double v = fullv[i]; int o = order[i], j = i;
        while (j > 0 && v > fullv[j - 1]) { fullv[j] = fullv[j - 1]; order[j] = order[j - 1]; j--; }
        fullv[j] = v; order[j] = o;
    }
    return m;
}

/* One move of a cheap policy (greedy or heuristic); fills *out. */
static int policy_move(Board *b, int d, const int *rem, int R, const Settings *st, Scratch *sc, Move *out) {
    int n = gen_moves(b, d, sc->mv, MAXMOVES);
    if (n <= 0 || n > MAXMOVES) return -1;
    if (n == 1 || b->nt == 0) { *out = sc->mv[0]; return 0; }
    if (st->mode == MODE_GREEDY || R == 0) {
        /* maximise digit x level now; ties: higher level, then the most
         * compact spot (fewest new perimeter squares); on the last move this
         * is exactly optimal */
        compute_grids(b, sc);
        int best = 0; double bv = -1e18;
        for (int i = 0; i < n; i++) {
            const Move *m = &sc->mv[i];
            const Shape *s = &SH[d][m->r];
            double v = 1000.0 * d * m->lev + 10.0 * m->lev;
            if (m->lev == 0)
                for (int q = 0; q < s->n; q++) v += sc->nb0[m->y + s->dy[q]][m->x + s->dx[q]] * 0.01;
            if (v > bv) { bv = v; best = i; }
        }
        *out = sc->mv[best];
        return 0;
    }
    int order[64]; double fv[64];
    int tm = st->topm < 64 ? st->topm : 64;
    rank_moves(b, d, rem, R, st->w, tm, sc, n, order, fv);
    *out = sc->mv[order[0]];
    return 0;
}

/* splitmix64: seeds every stream (samples, games) from a 64-bit key */
static inline uint64_t smix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* play the rest of the game from b (already holding the candidate), or its
 * next st->horizon cards and then add the learned value of what is left */
static double rollout(Board *b, const int *seq, int R, const int *rem0, const Settings *st, Scratch *sc) {
    int rem[10]; memcpy(rem, rem0, sizeof rem);
    int steps = st->horizon > 0 && st->horizon < R ? st->horizon : R;
    for (int t = 0; t < steps; t++) {
        int d = seq[t];
        rem[d]--;
        Move m;
        if (policy_move(b, d, rem, R - 1 - t, st, sc, &m)) return -100000;
        if (board_place(b, d, m.r, m.x, m.y, m.lev)) return -100000;
    }
    if (steps < R) return b->score + board_value(b, R - steps, rem, st->vm);
    return b->score;
}

typedef struct {
    const Settings *st;
    Board *after;          /* [C] boards after each root candidate */
    int C, R, Kmax;
    const int *seqs;       /* [Kmax][R] future card orders (shared = CRN) */
    const int *rem_after;  /* unturned multiset after the current card */
    double *res;           /* [C][Kmax] rollout results */
    const int *jc, *js;    /* job list: candidate, sample */
    int njobs;
    atomic_int next;
    atomic_int fail;
} MCWork;

typedef struct { MCWork *w; Scratch *sc; } WorkerArg;

static void *mc_worker(void *p) {
    WorkerArg *a = (WorkerArg *)p;
    MCWork *w = a->w;
    Settings rs = *w->st;
    rs.mode = MODE_HEUR;
    for (;;) {
        int j = atomic_fetch_add(&w->next, 1);
        if (j >= w->njobs) break;
        int c = w->jc[j], s = w->js[j];
        memcpy(&a->sc->tmp, &w->after[c], sizeof(Board));
        double v = rollout(&a->sc->tmp, w->seqs + (size_t)s * (size_t)(w->R > 0 ? w->R : 1), w->R,
                        w->rem_after, &rs, a->sc);
        if (v < -1000) atomic_store(&w->fail, 1);
        w->res[(size_t)c * (size_t)w->Kmax + (size_t)s] = v;
    }
    return NULL;
}

#define MAXTHREADS 16

/* Common random numbers: sample s (0 <= s < K) is the same card order for
 * every candidate, a uniform draw without replacement of R cards from the
 * pool of np unturned cards, a pure function of (seed, s).  seqs holds K rows
 * of max(R, 1) cards. */
static void draw_futures(const int *pool, int np, int R, uint64_t seed, int K, int *seqs) {
    int Rr = R > 0 ? R : 1;
    for (int s = 0; s < K; s++) {
        int p[64]; memcpy(p, pool, sizeof(int) * (size_t)np);
        uint64_t rs = smix(seed * 0x100000001B3ULL + (uint64_t)s * 0x9E3779B97F4A7C15ULL + 12345);
        for (int t = 0; t < R; t++) {
            rs = smix(rs);
            int j = t + (int)((rs >> 11) % (uint64_t)(np - t));
            int tmp = p[t]; p[t] = p[j]; p[j] = tmp;
            seqs[(size_t)s * Rr + t] = p[t];
        }
    }
}

/* Run w's job list on nthreads threads (scr[t] is thread t's scratch); each
 * result lands in its own slot, so the results never depend on the threads.
 * Returns -1 if a rollout failed. */
static int run_rollouts(MCWork *w, Scratch **scr, int nthreads) {
    WorkerArg wa[MAXTHREADS]; pthread_t th[MAXTHREADS];
    int nt = nthreads < w->njobs ? nthreads : w->njobs, started = 0;
    for (int t = 1; t < nt; t++) {
        wa[t].w = w; wa[t].sc = scr[t];
        if (pthread_create(&th[t], NULL, mc_worker, &wa[t]) == 0) started = t; else break;
    }
    wa[0].w = w; wa[0].sc = scr[0];
    mc_worker(&wa[0]);
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
    return atomic_load(&w->fail) ? -1 : 0;
}

/* what choose_move reports back (for the Python info dict) */
typedef struct {
    int moves_evaluated;
    long rollouts;
    int ncand;
    double best_value;
    int nmoves;
    /* per-candidate diagnostics */
    int cr[64], cx[64], cy[64], clev[64], cnsamp[64];
    double cmean[64], cheur[64];
} ChooseInfo;

/* The planner.  Deterministic for (board, digit, rem, R, seed, settings):
 * work is counted in rollouts, each rollout's card order depends only on
 * (seed, sample index), and results are combined in a fixed order. */
static int choose_move(Board *b, int d, const int *rem, int R, uint64_t seed,
                       const Settings *st, Scratch **scr, Move *out, ChooseInfo *info) {
    Scratch *sc = scr[0];
    memset(info, 0, sizeof *info);
    int n = gen_moves(b, d, sc->mv, MAXMOVES);
    info->nmoves = n;
    if (n <= 0 || n > MAXMOVES) return -1;
    if (st->mode != MODE_MC || n == 1 || b->nt == 0 || R == 0)
        return policy_move(b, d, rem, R, st, sc, out);

    int C = st->ncand; if (C > 64) C = 64; if (C < 1) C = 1;
    int tm = st->roottopm; if (tm < C) tm = C; if (tm > 64) tm = 64;
    int order[64]; double fv[64];
    int m = rank_moves(b, d, rem, R, st->wroot, tm, sc, n, order, fv);
    if (C > m) C = m;
    Move cand[64];
    for (int i = 0; i < C; i++) cand[i] = sc->mv[order[i]];
    info->ncand = C;
    if (C == 1) { *out = cand[0]; return 0; }

    int stages = st->stages < 1 ? 1 : st->stages;
    /* late moves have short rollouts: give them up to 4x the samples (for
     * R >= 12 the budget is k0; for R = 3 it is 4 k0).  Still a pure
     * function of the inputs, so deterministic. */
    int mult12 = 144 / (R > 0 ? R : 1);
    if (mult12 < 12) mult12 = 12;
    if (mult12 > 48) mult12 = 48;
    int k0 = (st->k0 * mult12 + 11) / 12;
    if (k0 < 1) k0 = 1;
    int Kmax = k0 << (stages - 1);
    if (Kmax < 1) Kmax = 1;
    int rem_after[10]; memcpy(rem_after, rem, sizeof rem_after);
    int pool[64], np = 0;
    for (int q = 0; q < 10; q++) for (int c = 0; c < rem[q]; c++) if (np < 64) pool[np++] = q;
    if (R > np) R = np;
    int Rr = R > 0 ? R : 1;
    int *seqs = malloc(sizeof(int) * (size_t)Kmax * (size_t)Rr);
    double *res = malloc(sizeof(double) * (size_t)Kmax * (size_t)C);
    int *jc = malloc(sizeof(int) * (size_t)Kmax * (size_t)C * 2);
    Board *after = malloc(sizeof(Board) * (size_t)C);
    if (!seqs || !res || !jc || !after) { free(seqs); free(res); free(jc); free(after); return -1; }
    int *js = jc + (size_t)Kmax * (size_t)C;
    draw_futures(pool, np, R, seed, Kmax, seqs);
    for (int c = 0; c < C; c++) {
        after[c] = *b;
        board_place(&after[c], d, cand[c].r, cand[c].x, cand[c].y, cand[c].lev);
    }
    int alive[64], na = C, kdone = 0, K = k0;
    for (int c = 0; c < C; c++) alive[c] = c;
    double mean[64] = {0};
    int nthreads = st->threads < 1 ? 1 : (st->threads > MAXTHREADS ? MAXTHREADS : st->threads);
    int failed = 0;
    for (int stg = 0; stg < stages; stg++) {
        MCWork w;
        w.st = st; w.after = after; w.C = C; w.R = R; w.Kmax = Kmax; w.seqs = seqs;
        w.rem_after = rem_after; w.res = res; w.jc = jc; w.js = js; w.njobs = 0;
        atomic_init(&w.next, 0); atomic_init(&w.fail, 0);
        for (int s = kdone; s < K; s++)
            for (int a = 0; a < na; a++) { jc[w.njobs] = alive[a]; js[w.njobs] = s; w.njobs++; }
        info->rollouts += w.njobs;
        if (run_rollouts(&w, scr, nthreads)) { failed = 1; break; }
        kdone = K;
        for (int a = 0; a < na; a++) {
            int c = alive[a]; double sum = 0;
            for (int s = 0; s < K; s++) sum += res[(size_t)c * Kmax + s];
            mean[c] = sum / K;
            info->cnsamp[c] = K;
        }
        /* keep the better half (stable sort by mean; the heuristic order
         * breaks ties) */
        for (int i = 1; i < na; i++) {
            int c = alive[i], j = i;
            while (j > 0 && (mean[c] > mean[alive[j - 1]] ||
                             (mean[c] == mean[alive[j - 1]] && c < alive[j - 1]))) {
                alive[j] = alive[j - 1]; j--;
            }
            alive[j] = c;
        }
        if (stg == stages - 1 || na <= 1) break;
        na = (na + 1) / 2;
        if (na <= 1) break;
        K *= 2;
        if (K > Kmax) K = Kmax;
    }
    for (int c = 0; c < C; c++) {
        info->cr[c] = cand[c].r; info->cx[c] = cand[c].x + b->ox; info->cy[c] = cand[c].y + b->oy;
        info->clev[c] = cand[c].lev; info->cmean[c] = mean[c]; info->cheur[c] = fv[c];
    }
    *out = cand[alive[0]];
    info->best_value = mean[alive[0]];
    free(seqs); free(res); free(jc); free(after);
    return failed ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* 5b. Analysis: given placements judged, and the best game in hindsight */
/* ------------------------------------------------------------------ */

/* The planner's root candidates: the best `count` placements by the one-move
 * evaluation, ranked as choose_move ranks them before its playouts (every
 * placement of a first tile; the exact best for the last card).  Returns how
 * many were written to out (window coordinates), -1 on failure. */
static int root_candidates(Board *b, int d, const int *rem, int R, const Settings *st,
                           Scratch *sc, int count, Move *out) {
    if (count > 64) count = 64;
    if (count < 1) count = 1;
    int n = gen_moves(b, d, sc->mv, MAXMOVES);
    if (n <= 0 || n > MAXMOVES) return -1;
    if (R == 0) return policy_move(b, d, rem, R, st, sc, out) ? -1 : 1;
    if (b->nt == 0 || n == 1) {
        int c = n < count ? n : count;
        memcpy(out, sc->mv, sizeof(Move) * (size_t)c);
        return c;
    }
    int tm = st->roottopm < count ? count : st->roottopm;
    if (tm > 64) tm = 64;
    int order[64]; double fv[64];
    int m = rank_moves(b, d, rem, R, st->wroot, tm, sc, n, order, fv);
    int c = m < count ? m : count;
    for (int i = 0; i < c; i++) out[i] = sc->mv[order[i]];
    return c;
}

/* Final scores of each of the nm placements mv[] (window coordinates of b)
 * over K sampled futures of R cards from the unturned multiset rem, the rest
 * played by the planner's rollout policy.  Sample s is the same future for
 * every placement (common random numbers: differences are paired), drawn as
 * choose_move draws them.  res[c * K + s]; deterministic for the seed. */
static int evaluate_moves(const Board *b, int d, const int *rem, int R, const Move *mv, int nm,
                          int K, uint64_t seed, const Settings *st, Scratch **scr, int *res) {
    int pool[64], np = 0;
    for (int q = 0; q < 10; q++) for (int c = 0; c < rem[q]; c++) if (np < 64) pool[np++] = q;
    if (R > np) R = np;
    int Rr = R > 0 ? R : 1;
    int *seqs = malloc(sizeof(int) * (size_t)K * (size_t)Rr);
    double *dres = malloc(sizeof(double) * (size_t)K * (size_t)nm);
    int *jc = malloc(sizeof(int) * (size_t)K * (size_t)nm * 2);
    Board *after = malloc(sizeof(Board) * (size_t)nm);
    int rc = 0;
    if (!seqs || !dres || !jc || !after) rc = -1;
    for (int c = 0; c < nm && !rc; c++) {
        after[c] = *b;
        rc = board_place(&after[c], d, mv[c].r, mv[c].x, mv[c].y, mv[c].lev);
    }
    if (!rc) {
        draw_futures(pool, np, R, seed, K, seqs);
        MCWork w;
        w.st = st; w.after = after; w.C = nm; w.R = R; w.Kmax = K; w.seqs = seqs;
        w.rem_after = rem; w.res = dres; w.jc = jc; w.js = jc + (size_t)K * (size_t)nm;
        w.njobs = 0;
        atomic_init(&w.next, 0); atomic_init(&w.fail, 0);
        for (int s = 0; s < K; s++)
            for (int c = 0; c < nm; c++) { jc[w.njobs] = c; jc[(size_t)K * nm + w.njobs] = s; w.njobs++; }
        int nthreads = st->threads < 1 ? 1 : (st->threads > MAXTHREADS ? MAXTHREADS : st->threads);
        rc = run_rollouts(&w, scr, nthreads);
        for (size_t i = 0; i < (size_t)K * (size_t)nm && !rc; i++) res[i] = (int)dres[i];
    }
    free(seqs); free(dres); free(jc); free(after);
    return rc;
}

/* A whole game's placements, in card order, and its score. */
typedef struct { int score, n; TileRec t[MAXT]; } Line;

/* One round of the hindsight beam: each job lays a candidate on a beam board
 * and plays the known rest of the deck with the rollout policy. */
typedef struct {
    const Board *beam;
    const int *jb; const Move *jm;   /* job: beam board, placement */
    int njobs, d, R;
    const int *seq, *rem;            /* the known cards after this one */
    const Settings *st;
    Line *line;                      /* per job: the finished game */
    atomic_int next, fail;
} HSWork;

typedef struct { HSWork *w; Scratch *sc; } HSArg;

static void *hs_worker(void *p) {
    HSArg *a = (HSArg *)p;
    HSWork *w = a->w;
    Settings rs = *w->st;
    rs.mode = MODE_HEUR;
    rs.horizon = 0;   /* the beam keeps whole games */
    for (;;) {
        int j = atomic_fetch_add(&w->next, 1);
        if (j >= w->njobs) break;
        Board *t = &a->sc->tmp;
        const Move *m = &w->jm[j];
        memcpy(t, &w->beam[w->jb[j]], sizeof(Board));
        int v = board_place(t, w->d, m->r, m->x, m->y, m->lev) ? -100000
              : (int)rollout(t, w->seq, w->R, w->rem, &rs, a->sc);
        if (v < -1000) { atomic_store(&w->fail, 1); continue; }
        w->line[j].score = v;
        w->line[j].n = t->nt;
        memcpy(w->line[j].t, t->t, sizeof(TileRec) * (size_t)t->nt);
    }
    return NULL;
}

/* order-free hash of a tile, summed over a board: equal boards reached by
 * different orders meet in the beam only once */
static uint64_t tile_hash(int d, int r, int x, int y, int lev) {
    return smix(((uint64_t)(d * 4 + r) << 56) ^ ((uint64_t)lev << 48) ^
                ((uint64_t)(uint32_t)(x + 65536) << 24) ^ (uint64_t)(uint32_t)(y + 65536));
}

typedef struct { int score, j; } Ranked;

static int ranked_cmp(const void *a, const void *b) {
    const Ranked *p = a, *q = b;
    if (p->score != q->score) return p->score > q->score ? -1 : 1;
    return p->j - q->j;
}

/* The best game found for a known card order: a beam search over rounds.
 * Each beam board's root candidates (as the planner ranks them) are played
 * out once with the known rest of the deck (a pilot rollout); the `width`
 * children with the best rollouts form the next beam.  The best finished
 * rollout seen anywhere is kept, so the result never falls below a game
 * the search has already played.  No randomness: deterministic, and the
 * threads change only the speed. */
static int hindsight_search(const int *cards, int n, int width, const Settings *st,
                            Scratch **scr, Line *best) {
    int C = st->ncand < 1 ? 1 : (st->ncand > 64 ? 64 : st->ncand);
    int maxjobs = width * C;
    Board *beam = malloc(sizeof(Board) * (size_t)width), *next = malloc(sizeof(Board) * (size_t)width);
    uint64_t *hash = malloc(sizeof(uint64_t) * (size_t)width * 2);
    int *jb = malloc(sizeof(int) * (size_t)maxjobs);
    Move *jm = malloc(sizeof(Move) * (size_t)maxjobs);
    Line *line = malloc(sizeof(Line) * (size_t)maxjobs);
    Ranked *rk = malloc(sizeof(Ranked) * (size_t)maxjobs);
    int rc = 0, nb = 1;
    if (!beam || !next || !hash || !jb || !jm || !line || !rk) rc = -1;
    uint64_t *nhash = hash ? hash + width : NULL;
    best->score = -1; best->n = 0;
    if (!rc) { board_clear(&beam[0], -WIN / 2, -WIN / 2); hash[0] = 0; }
    int nthreads = st->threads < 1 ? 1 : (st->threads > MAXTHREADS ? MAXTHREADS : st->threads);
    for (int i = 0; i < n && !rc; i++) {
        int d = cards[i], R = n - 1 - i, rem[10] = {0};
        for (int j = i + 1; j < n; j++) rem[cards[j]]++;
        int nj = 0;
        for (int k = 0; k < nb && !rc; k++) {
            Move cand[64];
            int c = root_candidates(&beam[k], d, rem, R, st, scr[0], C, cand);
            if (c < 0) { rc = -1; break; }
            for (int q = 0; q < c; q++) { jb[nj] = k; jm[nj] = cand[q]; nj++; }
        }
        if (rc) break;
        HSWork w;
        w.beam = beam; w.jb = jb; w.jm = jm; w.njobs = nj; w.d = d; w.R = R;
        w.seq = cards + i + 1; w.rem = rem; w.st = st; w.line = line;
        atomic_init(&w.next, 0); atomic_init(&w.fail, 0);
        HSArg ha[MAXTHREADS]; pthread_t th[MAXTHREADS];
        int nt = nthreads < nj ? nthreads : nj, started = 0;
        for (int t = 1; t < nt; t++) {
            ha[t].w = &w; ha[t].sc = scr[t];
            if (pthread_create(&th[t], NULL, hs_worker, &ha[t]) == 0) started = t; else break;
        }
        ha[0].w = &w; ha[0].sc = scr[0];
        hs_worker(&ha[0]);
        for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
        if (atomic_load(&w.fail)) { rc = -1; break; }
        for (int j = 0; j < nj; j++) {
            if (line[j].score > best->score) *best = line[j];
            rk[j].score = line[j].score; rk[j].j = j;
        }
        qsort(rk, (size_t)nj, sizeof(Ranked), ranked_cmp);
        int nn = 0;
        for (int q = 0; q < nj && nn < width && !rc; q++) {
            int j = rk[q].j;
            const Board *pb = &beam[jb[j]];
            const Move *m = &jm[j];
            uint64_t h = hash[jb[j]] + tile_hash(d, m->r, m->x + pb->ox, m->y + pb->oy, m->lev);
            int dup = 0;
            for (int e = 0; e < nn && !dup; e++) dup = nhash[e] == h;
            if (dup) continue;
            next[nn] = *pb;
            rc = board_place(&next[nn], d, m->r, m->x, m->y, m->lev);
            nhash[nn++] = h;
        }
        Board *tb = beam; beam = next; next = tb;
        memcpy(hash, nhash, sizeof(uint64_t) * (size_t)nn);
        nb = nn;
    }
    free(beam); free(next); free(hash); free(jb); free(jm); free(line); free(rk);
    return rc;
}

/* ------------------------------------------------------------------ */
/* 6. Python bindings                                                 */
/* ------------------------------------------------------------------ */

#define REQUIRE_TILES()                                                          \
    do {                                                                         \
        if (!tiles_ready) {                                                      \
            PyErr_SetString(PyExc_RuntimeError, "call setup_tiles(rows) first"); \
            return NULL;                                                         \
        }                                                                        \
    } while (0)

/* setup_tiles(rows): rows[d] = the digit's rows as drawn in tiles.json */
static PyObject *py_setup_tiles(PyObject *self, PyObject *args) {
    PyObject *rows;
    if (!PyArg_ParseTuple(args, "O", &rows)) return NULL;
    PyObject *digits = PySequence_Fast(rows, "rows must be a sequence of 10 shapes");
    if (!digits) return NULL;
    if (PySequence_Fast_GET_SIZE(digits) != 10) {
        Py_DECREF(digits);
        PyErr_SetString(PyExc_ValueError, "rows must hold the 10 digits' shapes");
        return NULL;
    }
    for (int d = 0; d < 10; d++) {
        PyObject *shape = PySequence_Fast(PySequence_Fast_GET_ITEM(digits, d), "a shape is a list of rows");
        if (!shape) { Py_DECREF(digits); return NULL; }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(shape);
        if (n < 1 || n > TILE_MAXROWS) {
            Py_DECREF(shape); Py_DECREF(digits);
            PyErr_SetString(PyExc_ValueError, "a shape has 1 to 8 rows");
            return NULL;
        }
        TILE_NROWS[d] = (int)n;
        for (Py_ssize_t y = 0; y < n; y++) {
            Py_ssize_t len;
            const char *row = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(shape, y), &len);
            if (!row || len > TILE_MAXCOLS) {
                Py_DECREF(shape); Py_DECREF(digits);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a row has at most 8 squares");
                return NULL;
            }
            memcpy(TILE_ROWS[d][y], row, (size_t)len);
            TILE_ROWS[d][y][len] = 0;
        }
        Py_DECREF(shape);
    }
    Py_DECREF(digits);
    if (shapes_init()) { PyErr_SetString(PyExc_ValueError, "bad tile shapes"); return NULL; }
    tiles_ready = 1;
    Py_RETURN_NONE;
}

static Scratch *g_scr[MAXTHREADS];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* scratch buffers are big (~0.5 MB); allocate lazily and keep them.  Calls
 * from Python hold g_lock while they compute (the GIL is released). */
static int ensure_scratch(int n) {
    for (int i = 0; i < n && i < MAXTHREADS; i++)
        if (!g_scr[i]) { g_scr[i] = calloc(1, sizeof(Scratch)); if (!g_scr[i]) return -1; }
    return 0;
}

static int board_from_py(PyObject *tiles, Board *b) {
    PyObject *seq = PySequence_Fast(tiles, "tiles must be a sequence of (digit, r, x, y, level)");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAXT) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "too many tiles"); return -1; }
    TileRec tl[MAXT];
    int axl = 0, axh = 0, ayl = 0, ayh = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int d, r, x, y, lev;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiii", &d, &r, &x, &y, &lev)) {
            Py_DECREF(seq); return -1;
        }
        if (d < 0 || d > 9 || r < 0 || r > 3 || lev < 0 || lev >= MAXLEV - 1 ||
            x < -1000000 || x > 1000000 || y < -1000000 || y > 1000000) {
            Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "bad tile tuple"); return -1;
        }
        tl[i].d = (int8_t)d; tl[i].r = (int8_t)r; tl[i].lev = (int8_t)lev; tl[i].x = x; tl[i].y = y;
        const Shape *s = &SH[d][r];
        if (i == 0 || x < axl) axl = x;
        if (i == 0 || x + s->w - 1 > axh) axh = x + s->w - 1;
        if (i == 0 || y < ayl) ayl = y;
        if (i == 0 || y + s->h - 1 > ayh) ayh = y + s->h - 1;
    }
    Py_DECREF(seq);
    if (axh - axl + 1 > WIN - 2 * MARGIN - 2 || ayh - ayl + 1 > WIN - 2 * MARGIN - 2) {
        PyErr_SetString(PyExc_ValueError, "board wider than any real game can produce");
        return -1;
    }
    int ox = n ? (axl + axh) / 2 - WIN / 2 : -WIN / 2, oy = n ? (ayl + ayh) / 2 - WIN / 2 : -WIN / 2;
    board_clear(b, ox, oy);
    for (Py_ssize_t i = 0; i < n; i++) {
        /* check the stated level against the stack (catches bad input) */
        const Shape *s = &SH[tl[i].d][tl[i].r];
        int wx = tl[i].x - b->ox, wy = tl[i].y - b->oy, lev = tl[i].lev;
        for (int q = 0; q < s->n; q++) {
            int x = wx + s->dx[q], y = wy + s->dy[q];
            if (r2_get(b->occ[lev][y], x) || (lev > 0 && !r2_get(b->occ[lev - 1][y], x))) {
                PyErr_Format(PyExc_ValueError, "tile %d does not lie on level %d", (int)i, lev);
                return -1;
            }
        }
        if (board_place(b, tl[i].d, tl[i].r, wx, wy, lev)) {
            PyErr_SetString(PyExc_ValueError, "board cannot be represented");
            return -1;
        }
    }
    return 0;
}

static PyObject *py_legal_placements(PyObject *self, PyObject *args) {
    REQUIRE_TILES();
    PyObject *tiles; int d;
    if (!PyArg_ParseTuple(args, "Oi", &tiles, &d)) return NULL;
    if (d < 0 || d > 9) { PyErr_SetString(PyExc_ValueError, "digit must be 0..9"); return NULL; }
    Board *b = malloc(sizeof(Board));
    Move *mv = malloc(sizeof(Move) * MAXMOVES);
    if (!b || !mv) { free(b); free(mv); return PyErr_NoMemory(); }
    if (board_from_py(tiles, b)) { free(b); free(mv); return NULL; }
    int n = gen_moves(b, d, mv, MAXMOVES);
    if (n > MAXMOVES) { free(b); free(mv); PyErr_SetString(PyExc_RuntimeError, "move overflow"); return NULL; }
    PyObject *res = PyList_New(n);
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(res, i, Py_BuildValue("(iiii)", mv[i].r, mv[i].x + b->ox, mv[i].y + b->oy, mv[i].lev));
    free(b); free(mv);
    return res;
}

/* up to n floats from a Python sequence into out (a shorter one leaves the rest) */
static int read_doubles(PyObject *v, double *out, Py_ssize_t n, const char *what) {
    PyObject *sq = PySequence_Fast(v, what);
    if (!sq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(sq);
    for (Py_ssize_t i = 0; i < len && i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sq, i));
        if (PyErr_Occurred()) { Py_DECREF(sq); return -1; }
    }
    Py_DECREF(sq);
    return 0;
}

/* settings: preset strength plus individual overrides */
static int parse_settings(PyObject *kw, Settings *st) {
    memset(st, 0, sizeof *st);
    /* default = "normal" (~0.2 s per move with 2 threads on the dev box) */
    st->mode = MODE_MC; st->ncand = 16; st->k0 = 24; st->stages = 4;
    st->topm = 8; st->roottopm = 24; st->threads = 2;
    memcpy(st->w, DEFAULT_W, sizeof st->w);
    memcpy(st->wroot, DEFAULT_W, sizeof st->wroot);
    if (!kw) return 0;
    PyObject *v;
    if ((v = PyDict_GetItemString(kw, "strength"))) {
        const char *s = PyUnicode_AsUTF8(v);
        if (!s) return -1;
        if (!strcmp(s, "fast")) { st->ncand = 8; st->k0 = 6; st->stages = 4; st->topm = 4; }
        else if (!strcmp(s, "normal")) { }
        else if (!strcmp(s, "strong")) { st->ncand = 16; st->k0 = 64; st->stages = 4; }
        else { PyErr_SetString(PyExc_ValueError, "strength: fast|normal|strong"); return -1; }
    }
    if ((v = PyDict_GetItemString(kw, "mode"))) {
        const char *s = PyUnicode_AsUTF8(v);
        if (!s) return -1;
        if (!strcmp(s, "greedy")) st->mode = MODE_GREEDY;
        else if (!strcmp(s, "heur")) st->mode = MODE_HEUR;
        else if (!strcmp(s, "mc")) st->mode = MODE_MC;
        else { PyErr_SetString(PyExc_ValueError, "mode: greedy|heur|mc"); return -1; }
    }
#define GETI(name, field) \
    if ((v = PyDict_GetItemString(kw, name))) { st->field = (int)PyLong_AsLong(v); if (PyErr_Occurred()) return -1; }
    GETI("ncand", ncand) GETI("samples", k0) GETI("stages", stages) GETI("topm", topm)
    GETI("roottopm", roottopm) GETI("threads", threads) GETI("horizon", horizon)
#undef GETI
    if (st->threads > MAXTHREADS) st->threads = MAXTHREADS;
    /* "weights" sets both the rollout policy and the root ranking (as it always
     * has); "root_weights" then overrides the root's */
    if ((v = PyDict_GetItemString(kw, "weights"))) {
        if (read_doubles(v, st->w, NW, "weights")) return -1;
        memcpy(st->wroot, st->w, sizeof st->wroot);
    }
    if ((v = PyDict_GetItemString(kw, "root_weights")) && read_doubles(v, st->wroot, NW, "root_weights"))
        return -1;
    if ((v = PyDict_GetItemString(kw, "value")) && read_doubles(v, st->vm, NVAL, "value")) return -1;
    if (st->horizon < 0) { PyErr_SetString(PyExc_ValueError, "horizon must be >= 0"); return -1; }
    if (st->horizon > 0 && !PyDict_GetItemString(kw, "value")) {
        PyErr_SetString(PyExc_ValueError, "a horizon needs a learned value (value=...)");
        return -1;
    }
    return 0;
}

static double now_sec(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static PyObject *py_choose(PyObject *self, PyObject *args, PyObject *kw) {
    REQUIRE_TILES();
    PyObject *tiles, *remo; int d, R; unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "OiOi|K", &tiles, &d, &remo, &R, &seed)) return NULL;
    if (kw && PyDict_GetItemString(kw, "seed")) {
        seed = PyLong_AsUnsignedLongLongMask(PyDict_GetItemString(kw, "seed"));
    }
    Settings st;
    if (parse_settings(kw, &st)) return NULL;
    if (d < 0 || d > 9) { PyErr_SetString(PyExc_ValueError, "digit must be 0..9"); return NULL; }
    int rem[10], tot = 0;
    PyObject *rs = PySequence_Fast(remo, "remaining must be a sequence of 10 counts");
    if (!rs) return NULL;
    if (PySequence_Fast_GET_SIZE(rs) != 10) { Py_DECREF(rs); PyErr_SetString(PyExc_ValueError, "remaining needs 10 counts"); return NULL; }
    for (int i = 0; i < 10; i++) {
        rem[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(rs, i));
        if (rem[i] < 0 || rem[i] > 20) { Py_DECREF(rs); PyErr_SetString(PyExc_ValueError, "bad remaining count"); return NULL; }
        tot += rem[i];
    }
    Py_DECREF(rs);
    if (PyErr_Occurred()) return NULL;
    if (R < 0 || R > tot) { PyErr_SetString(PyExc_ValueError, "need 0 <= rounds_left <= sum(remaining)"); return NULL; }
    Board *b = malloc(sizeof(Board));
    if (!b) return PyErr_NoMemory();
    if (board_from_py(tiles, b)) { free(b); return NULL; }
    Move m; ChooseInfo info; int rc;
    double t0 = now_sec();
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_lock);
    rc = ensure_scratch(st.threads);
    if (!rc) rc = choose_move(b, d, rem, R, (uint64_t)seed, &st, g_scr, &m, &info);
    pthread_mutex_unlock(&g_lock);
    Py_END_ALLOW_THREADS
    double dt = now_sec() - t0;
    if (rc) { free(b); PyErr_SetString(PyExc_RuntimeError, "choose failed"); return NULL; }
    PyObject *cands = PyList_New(0);
    for (int c = 0; c < info.ncand && st.mode == MODE_MC; c++) {
        PyObject *o = Py_BuildValue("{s:(iiii),s:d,s:d,s:i}", "move", info.cr[c], info.cx[c], info.cy[c], info.clev[c],
                                    "mean", info.cmean[c], "heur", info.cheur[c], "samples", info.cnsamp[c]);
        PyList_Append(cands, o); Py_DECREF(o);
    }
    PyObject *dict = Py_BuildValue("{s:i,s:i,s:l,s:d,s:d,s:N}", "level", m.lev, "legal_moves", info.nmoves,
                                   "rollouts", info.rollouts, "value", info.best_value, "seconds", dt,
                                   "candidates", cands);
    PyObject *ret = Py_BuildValue("(iiiN)", m.r, m.x + b->ox, m.y + b->oy, dict);
    free(b);
    return ret;
}

/* ---- analysis ---- */

/* remaining (10 counts) and rounds_left checked as choose() checks them */
static int parse_remaining(PyObject *remo, int R, int *rem) {
    int tot = 0;
    PyObject *rs = PySequence_Fast(remo, "remaining must be a sequence of 10 counts");
    if (!rs) return -1;
    if (PySequence_Fast_GET_SIZE(rs) != 10) { Py_DECREF(rs); PyErr_SetString(PyExc_ValueError, "remaining needs 10 counts"); return -1; }
    for (int i = 0; i < 10; i++) {
        rem[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(rs, i));
        if (rem[i] < 0 || rem[i] > 20) { Py_DECREF(rs); if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad remaining count"); return -1; }
        tot += rem[i];
    }
    Py_DECREF(rs);
    if (PyErr_Occurred()) return -1;
    if (R < 0 || R > tot) { PyErr_SetString(PyExc_ValueError, "need 0 <= rounds_left <= sum(remaining)"); return -1; }
    return 0;
}

static unsigned long long kw_seed(PyObject *kw) {
    PyObject *v = kw ? PyDict_GetItemString(kw, "seed") : NULL;
    return v ? PyLong_AsUnsignedLongLongMask(v) : 0;
}

/* candidates(tiles, digit, remaining, rounds_left, count=16, **settings)
 * -> [(r, x, y, level)]: the planner's root candidates, best first */
static PyObject *py_candidates(PyObject *self, PyObject *args, PyObject *kw) {
    REQUIRE_TILES();
    PyObject *tiles, *remo; int d, R, count = 16, rem[10];
    if (!PyArg_ParseTuple(args, "OiOi|i", &tiles, &d, &remo, &R, &count)) return NULL;
    Settings st;
    if (parse_settings(kw, &st)) return NULL;
    if (d < 0 || d > 9) { PyErr_SetString(PyExc_ValueError, "digit must be 0..9"); return NULL; }
    if (parse_remaining(remo, R, rem)) return NULL;
    Board *b = malloc(sizeof(Board));
    if (!b) return PyErr_NoMemory();
    if (board_from_py(tiles, b)) { free(b); return NULL; }
    Move out[64]; int c;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_lock);
    c = ensure_scratch(1) ? -1 : root_candidates(b, d, rem, R, &st, g_scr[0], count, out);
    pthread_mutex_unlock(&g_lock);
    Py_END_ALLOW_THREADS
    if (c < 0) { free(b); PyErr_SetString(PyExc_RuntimeError, "candidates failed"); return NULL; }
    PyObject *res = PyList_New(c);
    for (int i = 0; i < c; i++)
        PyList_SET_ITEM(res, i, Py_BuildValue("(iiii)", out[i].r, out[i].x + b->ox, out[i].y + b->oy, out[i].lev));
    free(b);
    return res;
}

/* evaluate(tiles, digit, remaining, rounds_left, moves, samples, seed=0, **settings)
 * moves: [(r, x, y)] legal placements of digit (absolute coordinates).
 * -> one row per move of `samples` final scores; sample s is the same future
 * for every move, so differences between rows are paired. */
static PyObject *py_evaluate(PyObject *self, PyObject *args, PyObject *kw) {
    REQUIRE_TILES();
    PyObject *tiles, *remo, *movo; int d, R, K, rem[10];
    if (!PyArg_ParseTuple(args, "OiOiOi", &tiles, &d, &remo, &R, &movo, &K)) return NULL;
    unsigned long long seed = kw_seed(kw);
    Settings st;
    if (PyErr_Occurred() || parse_settings(kw, &st)) return NULL;
    if (d < 0 || d > 9) { PyErr_SetString(PyExc_ValueError, "digit must be 0..9"); return NULL; }
    if (K < 1 || K > 1000000) { PyErr_SetString(PyExc_ValueError, "samples must be 1 to 1000000"); return NULL; }
    if (parse_remaining(remo, R, rem)) return NULL;
    PyObject *ms = PySequence_Fast(movo, "moves must be a sequence of (r, x, y)");
    if (!ms) return NULL;
    int nm = (int)PySequence_Fast_GET_SIZE(ms);
    Board *b = malloc(sizeof(Board));
    Move *legal = malloc(sizeof(Move) * MAXMOVES), *mv = malloc(sizeof(Move) * (size_t)(nm ? nm : 1));
    int *res = malloc(sizeof(int) * (size_t)K * (size_t)(nm ? nm : 1));
    if (!b || !legal || !mv || !res) { Py_DECREF(ms); free(b); free(legal); free(mv); free(res); return PyErr_NoMemory(); }
    int bad = board_from_py(tiles, b), nl = 0;
    if (!bad) {
        nl = gen_moves(b, d, legal, MAXMOVES);
        if (nl > MAXMOVES) { PyErr_SetString(PyExc_RuntimeError, "move overflow"); bad = 1; }
    }
    /* each given move must be one the kernel generates: its level comes from there */
    for (int i = 0; i < nm && !bad; i++) {
        int r, x, y, found = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ms, i), "iii", &r, &x, &y)) { bad = 1; break; }
        for (int q = 0; q < nl && !found; q++)
            if (legal[q].r == r && legal[q].x + b->ox == x && legal[q].y + b->oy == y) { mv[i] = legal[q]; found = 1; }
        if (!found) { PyErr_Format(PyExc_ValueError, "move %d (r%d@%d,%d) is not legal here", i, r, x, y); bad = 1; }
    }
    Py_DECREF(ms);
    free(legal);
    if (bad) { free(b); free(mv); free(res); return NULL; }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_lock);
    rc = ensure_scratch(st.threads < 1 ? 1 : st.threads);
    if (!rc && nm) rc = evaluate_moves(b, d, rem, R, mv, nm, K, (uint64_t)seed, &st, g_scr, res);
    pthread_mutex_unlock(&g_lock);
    Py_END_ALLOW_THREADS
    free(b); free(mv);
    if (rc) { free(res); PyErr_SetString(PyExc_RuntimeError, "evaluate failed"); return NULL; }
    PyObject *rows = PyList_New(nm);
    for (int c = 0; c < nm; c++) {
        PyObject *row = PyList_New(K);
        for (int s = 0; s < K; s++) PyList_SET_ITEM(row, s, PyLong_FromLong(res[(size_t)c * K + s]));
        PyList_SET_ITEM(rows, c, row);
    }
    free(res);
    return rows;
}

/* hindsight(cards, width=8, **settings) -> (score, [(r, x, y, level)] per card):
 * the best game the beam search finds when the card order is known */
static PyObject *py_hindsight(PyObject *self, PyObject *args, PyObject *kw) {
    REQUIRE_TILES();
    PyObject *cardo; int width = 8;
    if (!PyArg_ParseTuple(args, "O|i", &cardo, &width)) return NULL;
    PyObject *v;
    if (kw && (v = PyDict_GetItemString(kw, "width"))) { width = (int)PyLong_AsLong(v); if (PyErr_Occurred()) return NULL; }
    if (width < 1 || width > 4096) { PyErr_SetString(PyExc_ValueError, "width must be 1 to 4096"); return NULL; }
    Settings st;
    if (parse_settings(kw, &st)) return NULL;
    PyObject *cs = PySequence_Fast(cardo, "cards must be a sequence of digits");
    if (!cs) return NULL;
    int n = (int)PySequence_Fast_GET_SIZE(cs), cards[20], cnt[10] = {0}, ok = n >= 1 && n <= 20;
    for (int i = 0; i < n && ok; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, i));
        ok = x >= 0 && x <= 9 && ++cnt[x] <= 2;
        if (ok) cards[i] = (int)x;
    }
    Py_DECREF(cs);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cards: 1 to 20 digits, at most two of each");
        return NULL;
    }
    Line *best = malloc(sizeof(Line));
    if (!best) return PyErr_NoMemory();
    int rc;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_lock);
    rc = ensure_scratch(st.threads < 1 ? 1 : st.threads);
    if (!rc) rc = hindsight_search(cards, n, width, &st, g_scr, best);
    pthread_mutex_unlock(&g_lock);
    Py_END_ALLOW_THREADS
    if (rc || best->n != n) { free(best); PyErr_SetString(PyExc_RuntimeError, "hindsight search failed"); return NULL; }
    PyObject *tl = PyList_New(n);
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(tl, i, Py_BuildValue("(iiii)", best->t[i].r, best->t[i].x, best->t[i].y, best->t[i].lev));
    PyObject *ret = Py_BuildValue("(iN)", best->score, tl);
    free(best);
    return ret;
}

/* ---- whole games in C ---- */

typedef struct {
    const int *decks; int ngames;
    const Settings *st; uint64_t seed;
    int *scores; double *times;   /* times: [game][20] seconds per move */
    long *rollouts;
    atomic_int next; atomic_int fail;
    int per_move_threads;
    Scratch **scr_base; int scr_per_worker;
} GameWork;

static uint64_t deck_hash(const int *deck) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 20; i++) h = smix(h ^ (uint64_t)deck[i]);
    return h;
}

static int play_game(const int *deck, const Settings *st, uint64_t seed, Scratch **scr,
                     double *times, long *nroll) {
    Board *b = malloc(sizeof(Board));
    if (!b) return -100000;
    board_clear(b, -WIN / 2, -WIN / 2);
    uint64_t gseed = smix(seed ^ deck_hash(deck));
    for (int i = 0; i < 20; i++) {
        int rem[10] = {0};
        for (int j = i + 1; j < 20; j++) rem[deck[j]]++;
        Move m; ChooseInfo info;
        double t0 = now_sec();
        if (choose_move(b, deck[i], rem, 19 - i, smix(gseed + (uint64_t)i), st, scr, &m, &info)) { free(b); return -100000; }
        if (times) times[i] = now_sec() - t0;
        if (nroll) *nroll += info.rollouts;
        if (board_place(b, deck[i], m.r, m.x, m.y, m.lev)) { free(b); return -100000; }
    }
    int s = b->score;
    free(b);
    return s;
}

typedef struct { GameWork *g; int wid; } GameArg;

static void *game_worker2(void *p) {
    GameArg *a = (GameArg *)p;
    GameWork *g = a->g;
    Scratch **scr = g->scr_base + (size_t)a->wid * (size_t)g->scr_per_worker;
    for (;;) {
        int i = atomic_fetch_add(&g->next, 1);
        if (i >= g->ngames) break;
        long nr = 0;
        int s = play_game(g->decks + 20 * i, g->st, g->seed, scr, g->times ? g->times + 20 * i : NULL, &nr);
        if (s < -1000) atomic_store(&g->fail, 1);
        g->scores[i] = s; g->rollouts[i] = nr;
    }
    return NULL;
}

/* solo_scores(decks, seed=0, game_threads=1, timing=False, **settings)
 * decks: list of 20-digit lists.  game_threads > 1 plays several games at
 * once (each with settings.threads threads per move); the scores do not
 * depend on either thread count. */
static PyObject *py_solo_scores(PyObject *self, PyObject *args, PyObject *kw) {
    REQUIRE_TILES();
    PyObject *decko;
    if (!PyArg_ParseTuple(args, "O", &decko)) return NULL;
    Settings st;
    if (parse_settings(kw, &st)) return NULL;
    unsigned long long seed = 0; int gthreads = 1, timing = 0;
    PyObject *v;
    if (kw && (v = PyDict_GetItemString(kw, "seed"))) seed = PyLong_AsUnsignedLongLongMask(v);
    if (kw && (v = PyDict_GetItemString(kw, "game_threads"))) gthreads = (int)PyLong_AsLong(v);
    if (kw && (v = PyDict_GetItemString(kw, "timing"))) timing = PyObject_IsTrue(v);
    if (PyErr_Occurred()) return NULL;
    if (gthreads < 1) gthreads = 1;
    if (gthreads * (st.threads < 1 ? 1 : st.threads) > MAXTHREADS) { PyErr_SetString(PyExc_ValueError, "too many threads"); return NULL; }
    PyObject *ds = PySequence_Fast(decko, "decks must be a sequence");
    if (!ds) return NULL;
    int ng = (int)PySequence_Fast_GET_SIZE(ds);
    int *decks = malloc(sizeof(int) * 20 * (size_t)(ng ? ng : 1));
    int *scores = calloc((size_t)(ng ? ng : 1), sizeof(int));
    long *nroll = calloc((size_t)(ng ? ng : 1), sizeof(long));
    double *times = timing ? calloc((size_t)20 * (ng ? ng : 1), sizeof(double)) : NULL;
    for (int i = 0; i < ng; i++) {
        PyObject *dk = PySequence_Fast(PySequence_Fast_GET_ITEM(ds, i), "deck must be a sequence");
        if (!dk) { Py_DECREF(ds); free(decks); free(scores); free(nroll); free(times); return NULL; }
        int cnt[10] = {0}, ok = PySequence_Fast_GET_SIZE(dk) == 20;
        for (int j = 0; j < 20 && ok; j++) {
            long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(dk, j));
            if (x < 0 || x > 9) ok = 0; else { decks[20 * i + j] = (int)x; cnt[x]++; }
        }
        Py_DECREF(dk);
        for (int q = 0; q < 10 && ok; q++) ok = cnt[q] == 2;
        if (!ok) {
            Py_DECREF(ds); free(decks); free(scores); free(nroll); free(times);
            PyErr_SetString(PyExc_ValueError, "each deck must hold two of each digit");
            return NULL;
        }
    }
    Py_DECREF(ds);
    GameWork g;
    g.decks = decks; g.ngames = ng; g.st = &st; g.seed = seed; g.scores = scores; g.times = times;
    g.rollouts = nroll; atomic_init(&g.next, 0); atomic_init(&g.fail, 0);
    g.scr_per_worker = st.threads < 1 ? 1 : st.threads;
    g.scr_base = g_scr;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_lock);
    rc = ensure_scratch(gthreads * g.scr_per_worker);
    if (!rc) {
        GameArg ga[MAXTHREADS]; pthread_t th[MAXTHREADS]; int started = 0;
        for (int t = 1; t < gthreads; t++) {
            ga[t].g = &g; ga[t].wid = t;
            if (pthread_create(&th[t], NULL, game_worker2, &ga[t]) == 0) started = t; else break;
        }
        ga[0].g = &g; ga[0].wid = 0;
        game_worker2(&ga[0]);
        for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
        if (atomic_load(&g.fail)) rc = -1;
    }
    pthread_mutex_unlock(&g_lock);
    Py_END_ALLOW_THREADS
    if (rc) { free(decks); free(scores); free(nroll); free(times); PyErr_SetString(PyExc_RuntimeError, "game failed"); return NULL; }
    PyObject *res = PyList_New(ng);
    for (int i = 0; i < ng; i++) PyList_SET_ITEM(res, i, PyLong_FromLong(scores[i]));
    PyObject *ret = res;
    if (timing) {
        PyObject *tl = PyList_New(ng), *rl = PyList_New(ng);
        for (int i = 0; i < ng; i++) {
            PyObject *row = PyList_New(20);
            for (int j = 0; j < 20; j++) PyList_SET_ITEM(row, j, PyFloat_FromDouble(times[20 * i + j]));
            PyList_SET_ITEM(tl, i, row);
            PyList_SET_ITEM(rl, i, PyLong_FromLong(nroll[i]));
        }
        ret = Py_BuildValue("(NNN)", res, tl, rl);
    }
    free(decks); free(scores); free(nroll); free(times);
    return ret;
}

/* the board, remaining counts and rounds left of a features()/value() call */
static Board *position_from_py(PyObject *args, int *rem, int *R, PyObject **extra) {
    PyObject *tiles, *remo;
    int ok = extra ? PyArg_ParseTuple(args, "OOiO", &tiles, &remo, R, extra)
                   : PyArg_ParseTuple(args, "OOi", &tiles, &remo, R);
    if (!ok || parse_remaining(remo, *R, rem)) return NULL;
    Board *b = malloc(sizeof(Board));
    if (!b) { PyErr_NoMemory(); return NULL; }
    if (board_from_py(tiles, b)) { free(b); return NULL; }
    return b;
}

/* features(tiles, remaining, rounds_left) -> the NF board features, then
 * rounds_left, the score so far and the 10 remaining counts */
static PyObject *py_features(PyObject *self, PyObject *args) {
    REQUIRE_TILES();
    int rem[10], R;
    Board *b = position_from_py(args, rem, &R, NULL);
    if (!b) return NULL;
    double phi[NF];
    board_features(b, rem, phi);
    PyObject *out = PyList_New(NF + 12);
    for (int i = 0; i < NF; i++) PyList_SET_ITEM(out, i, PyFloat_FromDouble(phi[i]));
    PyList_SET_ITEM(out, NF, PyFloat_FromDouble(R));
    PyList_SET_ITEM(out, NF + 1, PyFloat_FromDouble(b->score));
    for (int q = 0; q < 10; q++) PyList_SET_ITEM(out, NF + 2 + q, PyFloat_FromDouble(rem[q]));
    free(b);
    return out;
}

/* value(tiles, remaining, rounds_left, model) -> the learned value: points still to come */
static PyObject *py_value(PyObject *self, PyObject *args) {
    REQUIRE_TILES();
    int rem[10], R;
    PyObject *model;
    double vm[NVAL] = {0};
    Board *b = position_from_py(args, rem, &R, &model);
    if (!b) return NULL;
    if (PySequence_Size(model) != NVAL) {
        free(b);
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "a value model has %d numbers", NVAL);
        return NULL;
    }
    if (read_doubles(model, vm, NVAL, "model")) { free(b); return NULL; }
    double v = board_value(b, R, rem, vm);
    free(b);
    return PyFloat_FromDouble(v);
}

static PyObject *py_default_weights(PyObject *self, PyObject *noargs) {
    PyObject *l = PyList_New(NW);
    for (int i = 0; i < NW; i++) PyList_SET_ITEM(l, i, PyFloat_FromDouble(DEFAULT_W[i]));
    return l;
}

static PyObject *py_shapes(PyObject *self, PyObject *noargs) {
    REQUIRE_TILES();
    /* the distinct rotations as the kernel sees them, for cross-checks */
    PyObject *dd = PyDict_New();
    for (int d = 0; d < 10; d++) {
        PyObject *l = PyList_New(0);
        for (int ri = 0; ri < NR[d]; ri++) {
            const Shape *s = &SH[d][RV[d][ri]];
            PyObject *sq = PyList_New(s->n);
            for (int i = 0; i < s->n; i++) PyList_SET_ITEM(sq, i, Py_BuildValue("(ii)", s->dx[i], s->dy[i]));
            PyObject *t = Py_BuildValue("(iN)", RV[d][ri], sq);
            PyList_Append(l, t); Py_DECREF(t);
        }
        PyObject *key = PyLong_FromLong(d);
        PyDict_SetItem(dd, key, l); Py_DECREF(key); Py_DECREF(l);
    }
    return dd;
}

static PyMethodDef Methods[] = {
    {"setup_tiles", py_setup_tiles, METH_VARARGS,
     "setup_tiles(rows): the 10 digits' shapes as drawn in tiles.json; call once before anything else"},
    {"legal_placements", py_legal_placements, METH_VARARGS,
     "legal_placements(tiles, digit) -> [(r, x, y, level)]; tiles = [(digit, r, x, y, level)] in placement order"},
    {"choose", (PyCFunction)(void (*)(void))py_choose, METH_VARARGS | METH_KEYWORDS,
     "choose(tiles, digit, remaining, rounds_left, seed=0, **settings) -> (r, x, y, info)"},
    {"solo_scores", (PyCFunction)(void (*)(void))py_solo_scores, METH_VARARGS | METH_KEYWORDS,
     "solo_scores(decks, seed=0, game_threads=1, timing=False, **settings) -> scores "
     "(or (scores, per-move seconds, rollouts) with timing=True)"},
    {"candidates", (PyCFunction)(void (*)(void))py_candidates, METH_VARARGS | METH_KEYWORDS,
     "candidates(tiles, digit, remaining, rounds_left, count=16, **settings) -> [(r, x, y, level)], "
     "the planner's root candidates, best first"},
    {"evaluate", (PyCFunction)(void (*)(void))py_evaluate, METH_VARARGS | METH_KEYWORDS,
     "evaluate(tiles, digit, remaining, rounds_left, moves, samples, seed=0, **settings) -> "
     "[[final score per sampled future] per move]; the same futures for every move"},
    {"hindsight", (PyCFunction)(void (*)(void))py_hindsight, METH_VARARGS | METH_KEYWORDS,
     "hindsight(cards, width=8, **settings) -> (score, [(r, x, y, level)]): the best game "
     "a beam search finds with the card order known"},
    {"features", py_features, METH_VARARGS,
     "features(tiles, remaining, rounds_left) -> the evaluation's 14 board features, "
     "rounds_left, score, the 10 remaining counts"},
    {"value", py_value, METH_VARARGS,
     "value(tiles, remaining, rounds_left, model) -> the learned value (points still to come)"},
    {"default_weights", py_default_weights, METH_NOARGS, "the built-in evaluation weights"},
    {"shapes", py_shapes, METH_NOARGS, "distinct rotations: {digit: [(r, [(dx, dy)...])]}"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_nmbr9kernel", "NMBR 9 search kernel", -1, Methods};

PyMODINIT_FUNC PyInit__nmbr9kernel(void) {
    return PyModule_Create(&moddef);
}
