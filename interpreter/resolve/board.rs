//! Board geometry: grids, explicit positions, links, kills, dummies, symmetry and zones
//! become dense position ids and per-player direction tables.

use indexmap::IndexMap;

use super::{quoted, Cx, MAX_LINK_TABLE};
use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::Sexp;

const BOARD_FORMS: &[&str] = crate::keywords::BOARD;

/// A board with no positions, used when the file's board could not be read.
pub fn empty_board(n_players: usize) -> Board {
    Board {
        positions: Vec::new(),
        directions: Vec::new(),
        grids: Vec::new(),
        zones: Vec::new(),
        opposite: Vec::new(),
        next: Vec::new(),
        zone_bits: Vec::new(),
        n_players: n_players.max(1),
        numbers: Vec::new(),
        images: Vec::new(),
    }
}

/// Positions and links while the board is being built (before kills compact the ids).
struct Draft {
    names: IndexMap<String, usize>,
    pos: Vec<PosDef>,
    /// Direction name → (vector per grid, links by position).
    dirs: IndexMap<String, DraftDir>,
    grids: Vec<GridDef>,
    killed: Vec<bool>,
    /// Players, for the size of the direction table ([`table_fits`]).
    n_players: usize,
}

#[derive(Default)]
struct DraftDir {
    /// Vector of the first grid that declares it.
    vector: Option<[i32; MAX_DIMS]>,
    links: Vec<Option<usize>>,
}

impl Draft {
    fn add_pos(&mut self, cx: &mut Cx, name: String, node: &Sexp, def: PosDef) -> Option<usize> {
        if self.names.contains_key(&name) {
            cx.error(node.span, format!("position `{name}` is defined twice"));
            return None;
        }
        if self.pos.len() >= (NONE - 1) as usize {
            cx.error(node.span, "the board has too many positions");
            return None;
        }
        let i = self.pos.len();
        self.names.insert(name, i);
        self.pos.push(def);
        self.killed.push(false);
        Some(i)
    }

    fn dir(&mut self, name: &str) -> &mut DraftDir {
        self.dirs.entry(name.to_string()).or_default()
    }

    fn set_link(&mut self, dir: &str, from: usize, to: Option<usize>) {
        let n = self.pos.len();
        let d = self.dir(dir);
        if d.links.len() < n {
            d.links.resize(n, None);
        }
        d.links[from] = to;
    }
}

/// Resolves a `(board …)` form, filling the position, direction and zone name tables of `cx`.
pub fn resolve_board(cx: &mut Cx, form: &Sexp, n_players: usize) -> Option<Board> {
    let items = &form.list()?[1..];
    let mut draft = Draft {
        names: IndexMap::new(),
        pos: Vec::new(),
        dirs: IndexMap::new(),
        grids: Vec::new(),
        killed: Vec::new(),
        n_players: n_players.max(1),
    };
    // Phase 1: everything that creates positions, in order.
    for sub in items {
        let Some(parts) = sub.list() else {
            cx.expected(
                sub,
                &format!("one of {} in `(board ...)`", quoted(BOARD_FORMS)),
            );
            continue;
        };
        match sub.head().unwrap_or("") {
            "grid" => grid(cx, &mut draft, sub),
            "positions" => {
                for p in &parts[1..] {
                    let Some(name) = p.list().and_then(|l| l.first()).and_then(Sexp::atom_text)
                    else {
                        cx.expected(p, "`(NAME X1 Y1 X2 Y2)`");
                        continue;
                    };
                    let rect = rect_of(p.list().and_then(|l| l.get(1..)).unwrap_or_default());
                    draft.add_pos(
                        cx,
                        name.clone(),
                        p,
                        PosDef {
                            name,
                            dummy: false,
                            grid: None,
                            rect,
                        },
                    );
                }
            }
            "dummy" => {
                for p in &parts[1..] {
                    let Some(name) = cx.text(p, "a position name") else {
                        continue;
                    };
                    match draft.names.get(&name) {
                        Some(&i) => draft.pos[i].dummy = true,
                        None => {
                            draft.add_pos(
                                cx,
                                name.clone(),
                                p,
                                PosDef {
                                    name,
                                    dummy: true,
                                    grid: None,
                                    rect: None,
                                },
                            );
                        }
                    }
                }
            }
            "links" | "unlink" | "kill-positions" | "symmetry" | "zone" | "image" | "numbering" => {
            }
            head => {
                let d = Diagnostic::error(sub.span, format!("unknown board form `{head}`"))
                    .with_label(format!(
                        "expected one of {} in `(board ...)`",
                        quoted(BOARD_FORMS)
                    ))
                    .suggest(head, BOARD_FORMS.iter().copied());
                cx.diags.push(d);
            }
        }
    }
    let lookup = |cx: &mut Cx, draft: &Draft, node: &Sexp| -> Option<usize> {
        let name = node.atom_text();
        match name.as_ref().and_then(|n| draft.names.get(n)) {
            Some(&i) => Some(i),
            None => {
                let d = cx.unknown("position", node, draft.names.keys());
                cx.diags.push(d);
                None
            }
        }
    };
    // Phase 2: links and removals. The directions `links` forms add count in the table
    // before any link is stored.
    let mut n_dirs = draft.dirs.len();
    if !table_fits(
        cx,
        form.span,
        draft.pos.len(),
        n_dirs,
        draft.n_players,
        None,
    ) {
        return None;
    }
    let mut seen = rustc_hash::FxHashSet::default();
    for sub in items.iter().filter(|s| s.head() == Some("links")) {
        let name = sub.list().and_then(|l| l.get(1)).and_then(Sexp::sym);
        if let Some(name) = name.filter(|n| !draft.dirs.contains_key(*n) && seen.insert(*n)) {
            n_dirs += 1;
            let n_pos = draft.pos.len();
            if !table_fits(cx, sub.span, n_pos, n_dirs, draft.n_players, Some(name)) {
                return None;
            }
        }
    }
    for sub in items {
        let parts = sub.list().unwrap_or_default();
        match sub.head().unwrap_or("") {
            "links" => {
                let Some(dir) = parts.get(1).and_then(|d| cx.sym(d, "a direction name")) else {
                    if parts.len() < 2 {
                        cx.missing(sub, "direction", "(links DIR (FROM TO)...)");
                    }
                    continue;
                };
                draft.dir(dir);
                for pair in &parts[2..] {
                    match pair.list() {
                        Some([a, b]) => {
                            let (Some(a), Some(b)) = (lookup(cx, &draft, a), lookup(cx, &draft, b))
                            else {
                                continue;
                            };
                            draft.set_link(dir, a, Some(b));
                        }
                        _ => cx.expected(pair, "a pair `(FROM TO)`"),
                    }
                }
            }
            "unlink" => {
                for it in &parts[1..] {
                    match it.list() {
                        Some([a, b])
                            if b.sym().is_some_and(|d| {
                                draft.dirs.contains_key(d) && !draft.names.contains_key(d)
                            }) =>
                        {
                            // `(unlink (POSITION DIRECTION))`: remove one direction's link.
                            let Some(a) = lookup(cx, &draft, a) else {
                                continue;
                            };
                            let d = draft.dir(b.sym().unwrap_or_default());
                            if let Some(l) = d.links.get_mut(a) {
                                *l = None;
                            }
                        }
                        Some([a, b]) => {
                            let (Some(a), Some(b)) = (lookup(cx, &draft, a), lookup(cx, &draft, b))
                            else {
                                continue;
                            };
                            for d in draft.dirs.values_mut() {
                                if d.links.get(a) == Some(&Some(b)) {
                                    d.links[a] = None;
                                }
                            }
                        }
                        Some(_) => cx.expected(it, "a position or a pair `(FROM TO)`"),
                        None => {
                            let Some(p) = lookup(cx, &draft, it) else {
                                continue;
                            };
                            for d in draft.dirs.values_mut() {
                                for l in d.links.iter_mut() {
                                    if *l == Some(p) {
                                        *l = None;
                                    }
                                }
                                if let Some(l) = d.links.get_mut(p) {
                                    *l = None;
                                }
                            }
                        }
                    }
                }
            }
            "kill-positions" => {
                for it in &parts[1..] {
                    if let Some(p) = lookup(cx, &draft, it) {
                        draft.killed[p] = true;
                    }
                }
            }
            _ => {}
        }
    }
    // Compact: drop killed positions and the links that touch them.
    let mut remap = vec![NONE; draft.pos.len()];
    let mut positions = Vec::new();
    for (i, p) in draft.pos.iter().enumerate() {
        if !draft.killed[i] {
            remap[i] = positions.len() as u16;
            positions.push(p.clone());
        }
    }
    let n_pos = positions.len();
    for (name, &i) in &draft.names {
        if remap[i] != NONE {
            cx.positions.insert(name.clone(), PosId(remap[i]));
        } else {
            cx.killed.insert(name.clone());
        }
    }
    if draft.dirs.len() >= NONE as usize {
        cx.error(form.span, "the board has too many directions");
        return None;
    }
    let mut phys: Vec<Vec<u16>> = Vec::new();
    for (name, d) in &draft.dirs {
        cx.dirs.insert(name.clone(), DirId(phys.len() as u16));
        let mut row = vec![NONE; n_pos];
        for (from, to) in d.links.iter().enumerate() {
            if let Some(to) = to {
                if remap[from] != NONE && remap[*to] != NONE {
                    row[remap[from] as usize] = remap[*to];
                }
            }
        }
        phys.push(row);
    }
    let n_dirs = phys.len();
    let opposite = opposites(&draft, &phys);

    // Symmetry: per player, logical direction → physical direction.
    let n_players = n_players.max(1);
    let mut dir_map: Vec<Vec<usize>> = (0..n_players).map(|_| (0..n_dirs).collect()).collect();
    for sub in items.iter().filter(|s| s.head() == Some("symmetry")) {
        let parts = sub.list().unwrap_or_default();
        let Some(player) = parts
            .get(1)
            .and_then(|p| cx.soft("this symmetry", |cx| cx.player(p)))
        else {
            if parts.len() < 2 {
                cx.missing(sub, "player", "(symmetry PLAYER (D1 D2)...)");
            }
            continue;
        };
        for pair in &parts[2..] {
            match pair.list() {
                Some([a, b]) => {
                    let (Some(a), Some(b)) = cx
                        .soft("this pair", |cx| Some((cx.dir(a), cx.dir(b))))
                        .unwrap_or_default()
                    else {
                        continue;
                    };
                    dir_map[player.idx()][a.idx()] = b.idx();
                }
                _ => cx.expected(pair, "a pair of directions `(D1 D2)`"),
            }
        }
    }
    let mut next = Vec::with_capacity(n_players * n_dirs * n_pos);
    for map in &dir_map {
        for &phys_dir in map {
            next.extend_from_slice(&phys[phys_dir]);
        }
    }

    // Zones.
    let mut zones: Vec<ZoneDef> = Vec::new();
    for sub in items.iter().filter(|s| s.head() == Some("zone")) {
        zone(cx, sub, &mut zones, n_players);
    }
    let words = n_pos.div_ceil(64);
    let mut zone_bits = vec![0u64; zones.len() * n_players * words];
    for (z, zd) in zones.iter().enumerate() {
        for (p, list) in zd.positions.iter().enumerate() {
            for pos in list {
                zone_bits[(z * n_players + p) * words + pos.idx() / 64] |= 1 << (pos.idx() % 64);
            }
        }
    }
    // `(numbering POS...)`: the squares in notation order, numbered from 1.
    let mut numbers = Vec::new();
    for sub in items.iter().filter(|s| s.head() == Some("numbering")) {
        numbers = vec![0u16; n_pos];
        for (k, p) in sub.list().unwrap_or_default()[1..].iter().enumerate() {
            if let Some(pos) = cx.position(p) {
                if numbers[pos.idx()] != 0 {
                    cx.error(p.span, "this square is numbered twice");
                }
                numbers[pos.idx()] = (k + 1) as u16;
            }
        }
    }
    // `(image FILE...)`: kept as written; the front end finds and reads the files.
    let images = items
        .iter()
        .filter(|s| s.head() == Some("image"))
        .flat_map(|s| s.list().unwrap_or_default()[1..].to_vec())
        .filter_map(|f| match &f.kind {
            crate::syntax::SexpKind::Str(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    Some(Board {
        numbers,
        images,
        positions,
        directions: draft.dirs.keys().cloned().collect(),
        grids: draft.grids,
        zones,
        opposite,
        next,
        zone_bits,
        n_players,
    })
}

/// Whether a direction table of `n_dirs` directions over `n_pos` positions for `n_players`
/// players stays within [`MAX_LINK_TABLE`] entries; if not, an error at `span`, where the
/// direction `dir` takes it past the limit.
fn table_fits(
    cx: &mut Cx,
    span: Span,
    n_pos: usize,
    n_dirs: usize,
    n_players: usize,
    dir: Option<&str>,
) -> bool {
    let entries = n_pos.saturating_mul(n_dirs).saturating_mul(n_players);
    if entries <= MAX_LINK_TABLE {
        return true;
    }
    let d = cx.error(
        span,
        format!(
            "the board's direction table is too large: {n_pos} positions \
             × {n_dirs} directions × {n_players} players = {entries} links"
        ),
    );
    if let Some(dir) = dir {
        d.primary.text = format!("direction `{dir}` is direction number {n_dirs}");
    }
    d.notes.push(format!(
        "a board may have at most {MAX_LINK_TABLE} links (players × directions × positions)"
    ));
    false
}

fn grid(cx: &mut Cx, draft: &mut Draft, form: &Sexp) {
    const GRID_FORMS: &[&str] = crate::keywords::GRID;
    let parts = &form.list().unwrap_or_default()[1..];
    // Several `dimensions` forms in one grid (a Dagaz habit) make separate blocks that share
    // the grid's directions.
    let mut blocks: Vec<(Vec<Vec<String>>, Geometry)> = Vec::new();
    let mut directions: Vec<(String, Vec<i64>, &Sexp)> = Vec::new();
    // The latest `start-rectangle`: each `dimensions` block starts from the one before it.
    let mut start: Option<[i32; 4]> = None;
    for sub in parts {
        let args = sub.list().and_then(|l| l.get(1..)).unwrap_or_default();
        match sub.head() {
            Some("start-rectangle") => {
                start = rect_of(args);
                if let Some((_, g)) = blocks.last_mut() {
                    if g.start.is_none() {
                        g.start = start;
                    }
                }
            }
            Some("dimensions") => {
                blocks.push((
                    Vec::new(),
                    Geometry {
                        start,
                        steps: Vec::new(),
                    },
                ));
                let (labels, geometry) = blocks.last_mut().expect("just pushed");
                for dim in args {
                    let step = dim
                        .list()
                        .and_then(|l| l.get(1))
                        .and_then(|v| v.list())
                        .map(|v| {
                            let n = |k: usize| v.get(k).and_then(int_of).unwrap_or(0);
                            [n(0), n(1)]
                        })
                        .unwrap_or([0, 0]);
                    geometry.steps.push(step);
                    let Some(first) = dim.list().and_then(|l| l.first()) else {
                        cx.expected(dim, "a dimension `(\"a/b/c\" (DX DY))`");
                        continue;
                    };
                    let Some(text) = first.atom_text() else {
                        cx.expected(first, "a string of labels such as \"a/b/c\"");
                        continue;
                    };
                    let dim: Vec<String> = text.split('/').map(str::to_string).collect();
                    if dim
                        .iter()
                        .any(|l| cx.name_length(first.span, l, "a label").is_none())
                    {
                        continue;
                    }
                    labels.push(dim);
                }
            }
            Some("directions") => {
                for d in args {
                    let Some(l) = d.list() else {
                        cx.expected(d, "a direction `(NAME DX DY)`");
                        continue;
                    };
                    let Some(name) = l.first().and_then(|n| cx.sym(n, "a direction name")) else {
                        continue;
                    };
                    let mut v = Vec::new();
                    for n in &l[1..] {
                        if let Some(k) = cx.int(n, "an integer offset") {
                            v.push(k);
                        }
                    }
                    directions.push((name.to_string(), v, d));
                }
            }
            _ => {
                let head = sub.head().unwrap_or("");
                let d = Diagnostic::error(sub.span, format!("unknown grid form `{head}`"))
                    .with_label(format!(
                        "expected one of {} in `(grid ...)`",
                        quoted(GRID_FORMS)
                    ))
                    .suggest(head, GRID_FORMS.iter().copied());
                cx.diags.push(d);
            }
        }
    }
    if blocks.is_empty() {
        blocks.push((
            Vec::new(),
            Geometry {
                start,
                steps: Vec::new(),
            },
        ));
    }
    for (labels, geometry) in blocks {
        grid_block(cx, draft, form, labels, &geometry, &directions);
    }
}

/// Where a grid block's positions are drawn: the first position's rectangle and the pixel
/// offset of one step along each dimension.
struct Geometry {
    start: Option<[i32; 4]>,
    steps: Vec<[i32; 2]>,
}

fn int_of(x: &Sexp) -> Option<i32> {
    x.atom_text()?
        .parse::<i64>()
        .ok()
        .map(|v| v.clamp(-1_000_000, 1_000_000) as i32)
}

/// A rectangle from four integers `x1 y1 x2 y2`; `None` unless all four are there.
fn rect_of(args: &[Sexp]) -> Option<[i32; 4]> {
    let v: Vec<i32> = args.iter().take(4).filter_map(int_of).collect();
    (v.len() == 4).then(|| [v[0], v[1], v[2], v[3]])
}

fn grid_block(
    cx: &mut Cx,
    draft: &mut Draft,
    form: &Sexp,
    labels: Vec<Vec<String>>,
    geometry: &Geometry,
    directions: &[(String, Vec<i64>, &Sexp)],
) {
    if labels.is_empty() || labels.len() > MAX_DIMS {
        cx.error(
            form.span,
            format!("a grid needs one to {MAX_DIMS} dimensions"),
        )
        .primary
        .text = format!("found {}", labels.len());
        return;
    }
    let sizes: Vec<usize> = labels.iter().map(Vec::len).collect();
    let total: usize = sizes.iter().product();
    if total > 60_000 {
        cx.error(form.span, "this grid has too many positions");
        return;
    }
    let g = draft.grids.len() as u16;
    draft.grids.push(GridDef {
        labels: labels.clone(),
    });
    // Row by row: the first dimension varies fastest (a8 b8 … h8 a7 …).
    let mut ids = vec![None; total];
    for (flat, slot) in ids.iter_mut().enumerate() {
        let idx = unflatten(flat, &sizes);
        let name: String = (0..sizes.len())
            .map(|k| labels[k][idx[k]].as_str())
            .collect();
        let mut coords = [0u16; MAX_DIMS];
        for k in 0..sizes.len() {
            coords[k] = idx[k] as u16;
        }
        let rect = geometry.start.map(|[x1, y1, x2, y2]| {
            let (mut dx, mut dy) = (0i32, 0i32);
            for (k, step) in geometry.steps.iter().enumerate().take(sizes.len()) {
                dx = dx.saturating_add(step[0].saturating_mul(idx[k] as i32));
                dy = dy.saturating_add(step[1].saturating_mul(idx[k] as i32));
            }
            [
                x1.saturating_add(dx),
                y1.saturating_add(dy),
                x2.saturating_add(dx),
                y2.saturating_add(dy),
            ]
        });
        *slot = draft.add_pos(
            cx,
            name.clone(),
            form,
            PosDef {
                name,
                dummy: false,
                grid: Some((g, coords)),
                rect,
            },
        );
    }
    // The directions this grid adds count in the table before any link is stored.
    let mut n_dirs = draft.dirs.len();
    let mut seen = rustc_hash::FxHashSet::default();
    for (name, _, node) in directions {
        if !draft.dirs.contains_key(name) && seen.insert(name) {
            n_dirs += 1;
            let n_pos = draft.pos.len();
            if !table_fits(cx, node.span, n_pos, n_dirs, draft.n_players, Some(name)) {
                return;
            }
        }
    }
    for (name, v, node) in directions {
        if v.len() > sizes.len() {
            cx.error(
                node.span,
                format!(
                    "direction `{name}` has {} offsets but the grid has {} dimensions",
                    v.len(),
                    sizes.len()
                ),
            );
            continue;
        }
        // Fewer offsets than dimensions: the missing ones are 0 (a planar direction on a 3-D grid).
        let mut vector = [0i32; MAX_DIMS];
        for (k, x) in v.iter().enumerate() {
            vector[k] = (*x).clamp(-100_000, 100_000) as i32;
        }
        if draft.dir(name).vector.is_none() {
            draft.dir(name).vector = Some(vector);
        }
        for flat in 0..total {
            let idx = unflatten(flat, &sizes);
            let mut target = 0usize;
            let mut stride = 1usize;
            let mut inside = true;
            for k in 0..sizes.len() {
                let t = idx[k] as i64 + vector[k] as i64;
                if t < 0 || t >= sizes[k] as i64 {
                    inside = false;
                    break;
                }
                target += t as usize * stride;
                stride *= sizes[k];
            }
            if let (true, Some(from)) = (inside, ids[flat]) {
                draft.set_link(name, from, ids[target]);
            }
        }
    }
}

fn unflatten(mut flat: usize, sizes: &[usize]) -> [usize; MAX_DIMS] {
    let mut idx = [0; MAX_DIMS];
    for (k, &s) in sizes.iter().enumerate() {
        idx[k] = flat % s;
        flat /= s;
    }
    idx
}

/// The opposite of each direction: by negated grid vector, else by reversed links.
fn opposites(draft: &Draft, phys: &[Vec<u16>]) -> Vec<Option<DirId>> {
    let vectors: Vec<Option<[i32; MAX_DIMS]>> = draft.dirs.values().map(|d| d.vector).collect();
    let mut out = vec![None; phys.len()];
    for d in 0..phys.len() {
        if let Some(v) = vectors[d] {
            let neg = v.map(|x| -x);
            if let Some(e) = vectors.iter().position(|w| *w == Some(neg)) {
                out[d] = Some(DirId(e as u16));
                continue;
            }
        }
        // Link-only directions: the one whose links all run the other way.
        let links: Vec<(usize, u16)> = phys[d]
            .iter()
            .enumerate()
            .filter(|(_, &t)| t != NONE)
            .map(|(f, &t)| (f, t))
            .collect();
        if links.is_empty() {
            continue;
        }
        out[d] = (0..phys.len())
            .find(|&e| links.iter().all(|&(f, t)| phys[e][t as usize] == f as u16))
            .map(|e| DirId(e as u16));
    }
    out
}

fn zone(cx: &mut Cx, form: &Sexp, zones: &mut Vec<ZoneDef>, n_players: usize) {
    const ZONE_FORMS: &[&str] = crate::keywords::ZONE;
    let mut name = None;
    let mut players = Vec::new();
    let mut positions = Vec::new();
    let mut has_players = false;
    for sub in &form.list().unwrap_or_default()[1..] {
        let args = sub.list().and_then(|l| l.get(1..)).unwrap_or_default();
        match sub.head() {
            Some("name") => {
                name = args
                    .first()
                    .and_then(|n| cx.sym(n, "a zone name"))
                    .map(str::to_string)
            }
            Some("players") => {
                has_players = true;
                players.extend(
                    args.iter()
                        .filter_map(|p| cx.soft("this player's zone", |cx| cx.player(p))),
                );
            }
            Some("positions") => {
                for p in args {
                    // A zone may name a position that `kill-positions` removed: skip it quietly.
                    let name = p.atom_text().unwrap_or_default();
                    if !cx.killed.contains(&name) {
                        positions.extend(cx.position(p));
                    }
                }
            }
            Some("glyph") | Some("help") => {
                cx.warn(sub.span, "ignored: Dagaz-only zone form");
            }
            _ => {
                let head = sub.head().unwrap_or("");
                let d = Diagnostic::error(sub.span, format!("unknown zone form `{head}`"))
                    .with_label(format!(
                        "expected one of {} in `(zone ...)`",
                        quoted(ZONE_FORMS)
                    ))
                    .suggest(head, ZONE_FORMS.iter().copied());
                cx.diags.push(d);
            }
        }
    }
    let Some(name) = name else {
        cx.missing(
            form,
            "zone name",
            "(zone (name NAME) (players P...) (positions POS...))",
        );
        return;
    };
    if !has_players {
        players = (0..n_players).map(|i| PlayerId(i as u8)).collect();
    }
    let id = match cx.zones.get(&name) {
        Some(&id) => id,
        None => {
            let id = ZoneId(zones.len() as u16);
            cx.zones.insert(name.clone(), id);
            zones.push(ZoneDef {
                name,
                positions: vec![Vec::new(); n_players],
            });
            id
        }
    };
    for p in players {
        let list = &mut zones[id.idx()].positions[p.idx()];
        for &pos in &positions {
            if !list.contains(&pos) {
                list.push(pos);
            }
        }
    }
}
