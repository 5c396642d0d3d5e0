//! "Did you mean": the known name closest to a misspelt one.
//!
//! A name is a likely typo of a known one when their edit distance (insertions, deletions,
//! substitutions and swaps of two neighbours, case ignored) is at most a third of its length
//! (at least 1), or two more than that when the known name starts with it. The distance is
//! computed in a band of that width with three rows of memory, and stops as soon as the
//! band exceeds the bound, so a comparison costs time proportional to the shorter name times
//! the bound and memory proportional to the shorter name. Names longer than [`MAX_SUGGEST`]
//! characters get no suggestion.
//!
//! [`nearest`] scans a list, which suits the short lists of the REPL and the resolver.
//! [`NameIndex`] answers the same question over tens of thousands of names (the positions of a
//! big board) without scanning them: it indexes every name by the strings left after
//! deleting up to two of its characters, so only names that share such a string with the typo
//! are compared (the "symmetric deletion" method).

/// Names longer than this many characters get no "did you mean".
pub const MAX_SUGGEST: usize = 64;

/// The known name closest to `name`, if it is close enough to be a likely typo. Between
/// equally close names, the first.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let q = Query::new(name)?;
    let mut best: Option<(usize, &'a str)> = None;
    for k in known {
        let cap = best.map_or(usize::MAX, |(d, _)| d);
        if let Some(d) = q.score(k, &lower_chars(k), cap) {
            best = Some((d, k));
            if d == 0 {
                break;
            }
        }
    }
    best.map(|(_, k)| k)
}

/// A misspelt name, ready to be compared.
struct Query<'n> {
    name: &'n str,
    lower: Vec<char>,
    /// The largest edit distance for a typo (a third of the length, at least 1).
    limit: usize,
}

impl<'n> Query<'n> {
    fn new(name: &'n str) -> Option<Query<'n>> {
        let n = name.chars().count();
        if n > MAX_SUGGEST {
            return None;
        }
        Some(Query {
            name,
            lower: lower_chars(name),
            limit: (n / 3).max(1),
        })
    }

    /// The score of known name `k` (0 when it differs only in case, else its distance plus
    /// one), when it is a likely typo scoring less than `cap`.
    fn score(&self, k: &str, k_lower: &[char], cap: usize) -> Option<usize> {
        if k == self.name {
            return None;
        }
        if k_lower == self.lower.as_slice() {
            return (cap > 0).then_some(0);
        }
        let bound = if k.starts_with(self.name) {
            self.limit + 2
        } else {
            self.limit
        };
        // Score `e + 1 < cap` means `e <= cap - 2`.
        let bound = bound.min(cap.saturating_sub(2));
        if cap < 2 {
            return None;
        }
        bounded_distance(&self.lower, k_lower, bound).map(|e| e + 1)
    }
}

fn lower_chars(s: &str) -> Vec<char> {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Edit distance in characters, counting a swap of two neighbours as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    bounded_distance(&a, &b, a.len().max(b.len())).expect("no distance exceeds the longer length")
}

/// The edit distance of `a` and `b` (with swaps of neighbours) when it is at most `bound`.
///
/// Only cells within `bound` of the diagonal are computed (any path through another cell
/// costs more than `bound`); values above `bound` are kept as `bound + 1`. Memory: three rows
/// of `b.len() + 1` cells.
fn bounded_distance(a: &[char], b: &[char], bound: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let inf = bound + 1;
    let w = b.len() + 1;
    let mut prev2 = vec![inf; w];
    let mut prev: Vec<usize> = (0..w).map(|j| j.min(inf)).collect();
    let mut cur = vec![inf; w];
    let mut prev_min = 0;
    for i in 1..=a.len() {
        let lo = i.saturating_sub(bound).max(1);
        let hi = (i + bound).min(b.len());
        cur.fill(inf);
        if i <= bound {
            cur[0] = i;
        }
        let mut row_min = cur[0];
        for j in lo..=hi {
            let mut best = (prev[j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(prev[j] + 1)
                .min(cur[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(prev2[j - 2] + 1);
            }
            cur[j] = best.min(inf);
            row_min = row_min.min(cur[j]);
        }
        // A cell draws on the two rows above it only, so two rows beyond the bound end it.
        if row_min > bound && prev_min > bound {
            return None;
        }
        prev_min = row_min;
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= bound).then_some(d)
}

/// Deletions indexed up to this depth; queries whose limit is larger scan by length.
const INDEX_DEPTH: usize = 2;

/// A "did you mean" index over a fixed list of names (see the module documentation).
/// [`NameIndex::nearest`] gives the same answer as [`nearest`] over the same list.
pub struct NameIndex {
    names: Vec<String>,
    lower: Vec<Vec<char>>,
    /// (hash of a name with up to [`INDEX_DEPTH`] characters deleted, depth, name index),
    /// sorted.
    deletions: Vec<(u64, u8, u32)>,
    /// Name indices sorted by name, for the known names that start with the typo.
    sorted: Vec<u32>,
    /// Name indices by length in characters (lower case), for long typos.
    by_len: Vec<Vec<u32>>,
}

impl NameIndex {
    /// Indexes `names` (their order decides between equally close names).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameIndex {
        let names: Vec<String> = names.into_iter().map(str::to_string).collect();
        let lower: Vec<Vec<char>> = names.iter().map(|n| lower_chars(n)).collect();
        let mut deletions = Vec::new();
        let mut by_len: Vec<Vec<u32>> = Vec::new();
        for (i, l) in lower.iter().enumerate() {
            // A typo the index serves has at most 3 * INDEX_DEPTH + 2 characters and differs
            // by at most INDEX_DEPTH edits.
            if l.len() <= 4 * INDEX_DEPTH + 2 {
                each_deletion(l, INDEX_DEPTH, &mut |h, depth| {
                    deletions.push((h, depth, i as u32))
                });
            }
            if l.len() <= MAX_SUGGEST + 2 * INDEX_DEPTH + 40 {
                if by_len.len() <= l.len() {
                    by_len.resize(l.len() + 1, Vec::new());
                }
                by_len[l.len()].push(i as u32);
            }
        }
        deletions.sort_unstable();
        deletions.dedup();
        let mut sorted: Vec<u32> = (0..names.len() as u32).collect();
        sorted.sort_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
        NameIndex {
            names,
            lower,
            deletions,
            sorted,
            by_len,
        }
    }

    /// The indexed name closest to `name`, if it is close enough to be a likely typo.
    pub fn nearest(&self, name: &str) -> Option<&str> {
        let q = Query::new(name)?;
        let mut candidates: Vec<u32> = Vec::new();
        // Known names that start with the typo (their bound is larger).
        let start = self
            .sorted
            .partition_point(|&i| self.names[i as usize].as_str() < name);
        candidates.extend(
            self.sorted[start..]
                .iter()
                .take_while(|&&i| self.names[i as usize].starts_with(name))
                .take(4096),
        );
        if q.limit <= INDEX_DEPTH {
            let depth = q.limit as u8;
            let mut hashes = Vec::new();
            each_deletion(&q.lower, q.limit, &mut |h, _| hashes.push(h));
            hashes.sort_unstable();
            hashes.dedup();
            for h in hashes {
                let from = self.deletions.partition_point(|e| e.0 < h);
                candidates.extend(
                    self.deletions[from..]
                        .iter()
                        .take_while(|e| e.0 == h)
                        .filter(|e| e.1 <= depth)
                        .map(|e| e.2),
                );
            }
        } else {
            let n = q.lower.len();
            for len in n.saturating_sub(q.limit)..=n + q.limit {
                if let Some(ids) = self.by_len.get(len) {
                    candidates.extend(ids);
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut best: Option<(usize, u32)> = None;
        for i in candidates {
            let cap = best.map_or(usize::MAX, |(d, _)| d);
            let k = &self.names[i as usize];
            if let Some(d) = q.score(k, &self.lower[i as usize], cap) {
                best = Some((d, i));
                if d == 0 {
                    break;
                }
            }
        }
        best.map(|(_, i)| self.names[i as usize].as_str())
    }
}

/// Calls `f` with the hash of every string left after deleting at most `depth` characters of
/// `s` (with the number deleted; a string reached in several ways may come more than once).
fn each_deletion(s: &[char], depth: usize, f: &mut impl FnMut(u64, u8)) {
    fn go(
        s: &[char],
        gone: &mut Vec<usize>,
        from: usize,
        depth: usize,
        f: &mut impl FnMut(u64, u8),
    ) {
        f(hash_without(s, gone), gone.len() as u8);
        if gone.len() == depth {
            return;
        }
        for k in from..s.len() {
            gone.push(k);
            go(s, gone, k + 1, depth, f);
            gone.pop();
        }
    }
    go(s, &mut Vec::with_capacity(depth), 0, depth, f);
}

/// FNV-1a over the characters of `s` not at the indices in `gone`.
fn hash_without(s: &[char], gone: &[usize]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &c) in s.iter().enumerate() {
        if !gone.contains(&i) {
            h = (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The original definition: the full matrix, no bound.
    fn full_distance(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let w = b.len() + 1;
        let mut d = vec![0usize; (a.len() + 1) * w];
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                d[i * w + j] = if i == 0 || j == 0 {
                    i + j
                } else {
                    let mut best = (d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]))
                        .min(d[(i - 1) * w + j] + 1)
                        .min(d[i * w + j - 1] + 1);
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        best = best.min(d[(i - 2) * w + j - 2] + 1);
                    }
                    best
                };
            }
        }
        d[a.len() * w + b.len()]
    }

    const WORDS: &[&str] = &[
        "", "a", "ab", "ba", "abc", "acb", "bca", "abcd", "badc", "Pawn", "pawn", "pwan", "King",
        "Kign", "kingdom", "nw", "nw1", "ne", "sw", "Elephant", "elephnat", "a1", "a10", "b1",
        "zz1", "aa11", "knight", "night", "nigh", "kniht", "bishop", "bshp", "rook", "roo",
    ];

    #[test]
    fn bounded_distance_agrees_with_the_full_matrix() {
        for a in WORDS {
            for b in WORDS {
                let full = full_distance(a, b);
                assert_eq!(edit_distance(a, b), full, "{a} {b}");
                let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                for bound in 0..6 {
                    let want = (full <= bound).then_some(full);
                    assert_eq!(bounded_distance(&ca, &cb, bound), want, "{a} {b} {bound}");
                }
            }
        }
    }

    #[test]
    fn nearest_finds_typos_but_not_strangers() {
        let known = ["nw1", "ne", "sw", "Pawn", "King"];
        assert_eq!(nearest("nw", known), Some("nw1"));
        assert_eq!(nearest("pawn", known), Some("Pawn"));
        assert_eq!(nearest("Kign", known), Some("King"));
        assert_eq!(nearest("Elephant", known), None);
    }

    #[test]
    fn the_index_agrees_with_the_scan() {
        let index = NameIndex::new(WORDS.iter().copied());
        for typo in WORDS
            .iter()
            .chain(&["kn", "bisho", "elephan", "xyz", "ABCD", "a11"])
        {
            assert_eq!(
                index.nearest(typo),
                nearest(typo, WORDS.iter().copied()),
                "{typo}"
            );
        }
    }

    #[test]
    fn long_names_get_no_suggestion_and_cost_nothing() {
        let long = "x".repeat(40_000);
        let other = format!("{long}y");
        assert_eq!(nearest(&long, [other.as_str()]), None);
        let index = NameIndex::new([other.as_str(), "a1"]);
        assert_eq!(index.nearest(&long), None);
    }
}
