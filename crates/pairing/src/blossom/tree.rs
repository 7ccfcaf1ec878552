//! The alternating-tree and blossom operations of the matching (`super`): labels, new
//! blossoms, their expansion, and augmentation along a path through them.

use super::{NONE, Solver};

impl Solver {
    pub(super) fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let (mut w, mut t, mut p) = (w, t, p);
        loop {
            let b = self.inblossom[w];
            debug_assert!(self.label[w] == 0 && self.label[b] == 0);
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            self.labelled_b.insert(b);
            let from = self.queue.len();
            let mut q = std::mem::take(&mut self.queue);
            self.leaves(b, &mut q);
            for &v in &q[from..] {
                self.labelled_v.insert(v);
            }
            if t == 1 {
                self.queue = q;
                return;
            }
            q.truncate(from);
            self.queue = q;
            // A T-blossom: its base's mate becomes S.
            let base = self.base[b];
            let m = self.mate[base];
            debug_assert!(m != NONE);
            w = self.endpoint(m);
            t = 1;
            p = m ^ 1;
        }
    }

    /// Traces back from v and w; the base of a new blossom, or NONE for an augmenting path.
    pub(super) fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut found = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                found = self.base[b];
                break;
            }
            debug_assert_eq!(self.label[b], 1);
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b]);
                b = self.inblossom[v];
                debug_assert_eq!(self.label[b], 2);
                v = self.endpoint(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        found
    }

    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unused.pop() else {
            unreachable!("at most n/2 blossoms exist at once")
        };
        self.base[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        debug_assert_eq!(self.label[bb], 1);
        self.label[b] = 1;
        self.labelled_b.insert(b);
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = 0;
        let mut leaves = Vec::new();
        self.leaves_of_children(&path, &mut leaves);
        for &v in &leaves {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // The least-slack edge from the new blossom to each neighbouring S-blossom.
        let mut touched = Vec::new();
        for &sub in &path {
            let list: Vec<usize> = match self.blossombestedges[sub].take() {
                Some(list) => list,
                None => {
                    let mut l = Vec::new();
                    self.leaves(sub, &mut l);
                    l.iter()
                        .flat_map(|&v| self.neighbours(v).map(|i| self.nb[i] / 2))
                        .collect()
                }
            };
            for k in list {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b && self.label[bj] == 1 {
                    let cur = self.bestedgeto[bj];
                    if cur == NONE {
                        touched.push(bj);
                        self.bestedgeto[bj] = k;
                    } else if self.slack(k) < self.slack(cur) {
                        self.bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let mut best = NONE;
        let mut list = Vec::with_capacity(touched.len());
        for bj in touched {
            let k = self.bestedgeto[bj];
            self.bestedgeto[bj] = NONE;
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
            list.push(k);
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.childs[b] = path;
        self.endps[b] = endps;
    }

    pub(super) fn leaves_of_children(&self, path: &[usize], out: &mut Vec<usize>) {
        for &c in path {
            self.leaves(c, out);
        }
    }

    /// Expands top-level blossom b: during a stage (a T-blossom whose z reached 0) or at its
    /// end (S-blossoms with z = 0, and their z = 0 sub-blossoms).
    pub(super) fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let mut work = vec![b];
        while let Some(b) = work.pop() {
            let childs = std::mem::take(&mut self.childs[b]);
            for &s in &childs {
                self.blossomparent[s] = NONE;
                if s < self.n {
                    self.inblossom[s] = s;
                } else if end_stage && self.dual[s] == 0 {
                    work.push(s);
                } else {
                    let mut l = Vec::new();
                    self.leaves(s, &mut l);
                    for v in l {
                        self.inblossom[v] = s;
                    }
                }
            }
            self.childs[b] = childs;
            if !end_stage && self.label[b] == 2 {
                self.relabel_expanded_t(b);
            }
            self.label[b] = 0;
            self.labelend[b] = NONE;
            self.childs[b] = Vec::new();
            self.endps[b] = Vec::new();
            self.base[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.unused.push(b);
        }
    }

    /// The sub-blossoms of an expanding T-blossom b on the path from its entry to its base
    /// become T and S in turn; the others stay free unless reached from outside.
    pub(super) fn relabel_expanded_t(&mut self, b: usize) {
        let len = self.childs[b].len() as isize;
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        debug_assert!(self.labelend[b] != NONE);
        let entry = self.inblossom[self.endpoint(self.labelend[b] ^ 1)];
        let Some(start) = self.childs[b].iter().position(|&c| c == entry) else {
            unreachable!("the entry child is a child")
        };
        let mut j = start as isize;
        let (step, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let mut p = self.labelend[b];
        while j != 0 {
            let q = self.endps[b][at(j - trick as isize)];
            let x = self.endpoint(p ^ 1);
            self.label[x] = 0;
            let y = self.endpoint(q ^ trick ^ 1);
            self.label[y] = 0;
            self.assign_label(x, 2, p);
            self.allow(q / 2);
            j += step;
            p = self.endps[b][at(j - trick as isize)] ^ trick;
            self.allow(p / 2);
            j += step;
        }
        let bv = self.childs[b][at(j)];
        let x = self.endpoint(p ^ 1);
        self.label[x] = 2;
        self.label[bv] = 2;
        self.labelled_b.insert(bv);
        self.labelend[x] = p;
        self.labelend[bv] = p;
        self.bestedge[bv] = NONE;
        j += step;
        while self.childs[b][at(j)] != entry {
            let bv = self.childs[b][at(j)];
            if self.label[bv] == 1 {
                j += step;
                continue;
            }
            let mut l = Vec::new();
            self.leaves(bv, &mut l);
            if let Some(&v) = l.iter().find(|&&v| self.label[v] != 0) {
                debug_assert_eq!(self.label[v], 2);
                debug_assert_eq!(self.inblossom[v], bv);
                self.label[v] = 0;
                let m = self.endpoint(self.mate[self.base[bv]]);
                self.label[m] = 0;
                let le = self.labelend[v];
                self.assign_label(v, 2, le);
            }
            j += step;
        }
    }

    /// Swaps matched and unmatched edges on the alternating path inside blossom b from vertex
    /// v to the base, and makes v the base.
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut work = vec![(b, v)];
        while let Some((b, v)) = work.pop() {
            let mut t = v;
            while self.blossomparent[t] != b {
                t = self.blossomparent[t];
            }
            if t >= self.n {
                work.push((t, v));
            }
            let len = self.childs[b].len() as isize;
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let Some(i) = self.childs[b].iter().position(|&c| c == t) else {
                unreachable!("t is a child of b")
            };
            let mut j = i as isize;
            let (step, trick): (isize, usize) = if i & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            while j != 0 {
                j += step;
                let t = self.childs[b][at(j)];
                let p = self.endps[b][at(j - trick as isize)] ^ trick;
                if t >= self.n {
                    work.push((t, self.endpoint(p)));
                }
                j += step;
                let t = self.childs[b][at(j)];
                if t >= self.n {
                    work.push((t, self.endpoint(p ^ 1)));
                }
                let (x, y) = (self.endpoint(p), self.endpoint(p ^ 1));
                self.mate[x] = p ^ 1;
                self.mate[y] = p;
            }
            self.childs[b].rotate_left(i);
            self.endps[b].rotate_left(i);
            // The first child's own augmentation (on the work list) makes v its base.
            self.base[b] = v;
        }
    }

    /// Augments along the path through S–S edge k between two single vertices.
    pub(super) fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                debug_assert_eq!(self.label[bs], 1);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.labelend[bs]);
                let bt = self.inblossom[t];
                debug_assert_eq!(self.label[bt], 2);
                s = self.endpoint(self.labelend[bt]);
                let j = self.endpoint(self.labelend[bt] ^ 1);
                debug_assert_eq!(self.base[bt], t);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }
}
