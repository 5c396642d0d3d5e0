//! The root of the search: iterative deepening, aspiration windows, MultiPV lines and the
//! principal variation as text.

use super::*;

impl Search<'_> {
    /// Iterative deepening at the root.
    pub(super) fn iterate(&mut self, progress: &mut dyn FnMut(&Info)) -> Option<SearchResult> {
        self.path[0] = self.pos.repetition_key();
        let mut root_list = MoveList::new();
        self.rules
            .legal_moves_in(&mut self.ws, &mut self.pos, &mut root_list);
        let reps = self.repetitions(0);
        let cx = GoalContext {
            pos: &self.pos,
            has_moves: !root_list.is_empty(),
            repetitions: reps,
        };
        if root_list.is_empty() || self.rules.outcome(&cx).is_some() {
            return None;
        }
        let texts = notation::move_texts(&self.rules.def, &root_list);
        // Root order: the stored best move first, then captures, then the rest.
        let tt_fp = self.tt.probe(self.tt_key()).map_or(0, |e| e.fp);
        self.lists[0] = root_list.clone();
        self.score_moves(0, tt_fp, false);
        let mut order: Vec<(i32, u16)> = self.keys[0].clone();
        order.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let mut order: Vec<u16> = order.into_iter().map(|(_, i)| i).collect();
        // `searchmoves`: only the root moves named (all of them when none is legal).
        if self.cfg.searchmoves.iter().any(|t| texts.contains(t)) {
            order.retain(|&i| self.cfg.searchmoves.contains(&texts[i as usize]));
        }
        let n = order.len();

        let limits = &self.cfg.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut best = order[0] as usize;
        let mut best_info: Option<Info> = None;
        // MultiPV: line k is the best of the root moves that lines 0..k did not take.
        let lines = (self.cfg.multi_pv.max(1) as usize).min(n);
        let mut prev_scores = vec![0; lines];
        for depth in 1..=max_depth {
            let mut found: Vec<(i32, usize, Info)> = Vec::new();
            let mut complete = true;
            let best_before = best;
            for k in 0..lines {
                let (value, idx, done, sound) =
                    self.root_search(depth as i32, &mut order[k..], prev_scores[k], k == 0);
                // An unfinished iteration counts when no earlier one finished, or when a move
                // it finished scored above the window's lower bound (its score is then no
                // worse than that move's: a better move found before time ran out).
                let first_partial = k == 0 && (best_info.is_none() || sound) && idx.is_some();
                if !(done || first_partial) {
                    complete = false;
                    break;
                }
                let Some(idx) = idx else {
                    complete = false;
                    break;
                };
                if k == 0 {
                    best = idx;
                }
                prev_scores[k] = value;
                found.push((
                    value,
                    idx,
                    Info {
                        depth: if done { depth } else { depth - 1 },
                        score: to_score(value),
                        nodes: self.nodes,
                        elapsed: self.start.elapsed(),
                        pv: self.pv_texts(),
                        multipv: 0,
                    },
                ));
                if !done {
                    complete = false;
                    break;
                }
            }
            if found.is_empty() {
                break;
            }
            // Several lines are reported only as a whole iteration, so that a client never
            // shows lines of different depths: an unfinished one after a finished one is
            // dropped, and the move played stays the last whole iteration's best.
            if lines > 1 && !complete && best_info.is_some() {
                best = best_before;
                break;
            }
            // Best first: a later line can outscore an earlier one (its search had another
            // window); the lines are ranked by score and the move played is the first's.
            let mut ranked = found;
            ranked.sort_by_key(|(v, _, _)| std::cmp::Reverse(*v));
            let value = ranked[0].0;
            best = ranked[0].1;
            for (k, (_, _, info)) in ranked.iter_mut().enumerate() {
                info.multipv = k as u32 + 1;
                info.nodes = self.nodes;
                info.elapsed = self.start.elapsed();
                progress(info);
            }
            best_info = ranked.into_iter().next().map(|(_, _, info)| info);
            if !complete {
                break;
            }
            let proven = value.abs() >= MATE_BOUND && ((MATE - value.abs()) as u32) < depth;
            let half_time =
                !limits.fixed_time && limits.time.is_some_and(|t| self.start.elapsed() * 2 >= t);
            let only = n == 1 && limits.depth.is_none();
            if proven || half_time || only {
                break;
            }
        }
        let info = best_info.unwrap_or_else(|| Info {
            depth: 0,
            score: to_score(0),
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            pv: vec![texts[best].clone()],
            multipv: 1,
        });
        Some(SearchResult {
            best,
            best_text: texts[best].clone(),
            info,
        })
    }

    /// One iteration at the root: (score, best move, whether every move was searched).
    /// `store`: the result is the position's best move (not a later MultiPV line), so it goes
    /// into the transposition table.
    pub(super) fn root_search(
        &mut self,
        depth: i32,
        order: &mut [u16],
        prev: i32,
        store: bool,
    ) -> (i32, Option<usize>, bool, bool) {
        self.root_depth = depth;
        // Aspiration: a window around the last score, widened when the result falls outside.
        let mut delta = 60;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let (v, idx, complete) = self.root_window(depth, order, alpha, beta, store);
            if !complete {
                return (v, idx, false, idx.is_some() && v > alpha);
            }
            if v <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                if delta > 1000 {
                    alpha = -INF;
                }
            } else if v >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                if delta > 1000 {
                    beta = INF;
                }
            } else {
                return (v, idx, true, true);
            }
            delta *= 3;
        }
    }

    pub(super) fn root_window(
        &mut self,
        depth: i32,
        order: &mut [u16],
        mut alpha: i32,
        beta: i32,
        store: bool,
    ) -> (i32, Option<usize>, bool) {
        let mut best = -INF;
        let mut best_idx = None;
        let mut vals: Vec<i32> = vec![-INF; order.len()];
        let alpha0 = alpha;
        self.pv[0].clear();
        for k in 0..order.len() {
            let idx = order[k] as usize;
            let m = self.lists[0].moves[idx];
            self.made[0] = fingerprint(&self.lists[0], &m);
            self.made_key[0] = super::history::move_key(&self.lists[0], &m, true);
            self.checked[0] = self.in_check();
            self.note_squares(0, &m);
            self.rules
                .make(&mut self.pos, &self.lists[0], &m, &mut self.log);
            let v = if k == 0 {
                self.child(depth - 1, alpha, beta, 0, true)
            } else {
                let mut v = self.child(depth - 1, alpha, alpha + 1, 0, true);
                if v > alpha && v < beta && !self.aborted {
                    v = self.child(depth - 1, alpha, beta, 0, true);
                }
                v
            };
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return (best, best_idx, false);
            }
            vals[k] = v;
            if v > best {
                best = v;
                best_idx = Some(idx);
                self.set_pv(0, idx as u16);
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        // Best first; the others keep their order (stable sort on fail-low bounds).
        let mut pairs: Vec<(i32, u16)> = vals.iter().copied().zip(order.iter().copied()).collect();
        pairs.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (o, p) in order.iter_mut().zip(pairs) {
            *o = p.1;
        }
        if let (Some(idx), true) = (best_idx, store) {
            let fp = fingerprint(&self.lists[0], &self.lists[0].moves[idx]);
            let bound = tt::bound(best, alpha0, beta);
            self.tt
                .store(self.tt_key(), fp, idx as u16, best, depth, bound);
        }
        (best, best_idx, true)
    }

    /// `pv[ply]` = the move (its index in the list at `ply`), then the line found below it.
    pub(super) fn set_pv(&mut self, ply: usize, idx: u16) {
        let list = &self.lists[ply];
        let fp = fingerprint(list, &list.moves[idx as usize]);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(fp);
        if let Some(next) = tail.first() {
            line.extend_from_slice(next);
        }
    }

    /// The root's principal variation as move texts (replayed to check each move).
    pub(super) fn pv_texts(&mut self) -> Vec<String> {
        let mut pos = self.lists.first().map(|_| self.pos.clone()).expect("root");
        let mut list = MoveList::new();
        let mut log = UndoLog::new();
        let mut out = Vec::new();
        for &fp in &self.pv[0] {
            self.rules.legal_moves_in(&mut self.ws, &mut pos, &mut list);
            let Some(idx) = (list.moves.iter()).position(|m| fingerprint(&list, m) == fp) else {
                break;
            };
            let m = list.moves[idx];
            out.push(notation::move_texts(&self.rules.def, &list)[idx].clone());
            self.rules.make(&mut pos, &list, &m, &mut log);
        }
        out
    }
}
