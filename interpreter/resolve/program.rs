//! Move and drop blocks become typed programs ([`Instr`] and [`Cond`] trees over ids).

use super::Cx;
use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::{Sexp, SexpKind};

/// Instructions written as bare symbols.
const BARE_INSTRS: &[&str] = crate::keywords::BARE_INSTRUCTIONS;

/// Instructions written as lists.
const LIST_INSTRS: &[&str] = crate::keywords::INSTRUCTIONS;

/// Conditions (all also take a `not-` prefix).
const CONDS: &[&str] = crate::keywords::CONDITIONS;

/// Resolves the items of a `(moves …)` or `(drops …)` form.
pub fn resolve_blocks(cx: &mut Cx, items: &[Sexp]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut move_type = None;
    for item in items {
        if item.head() == Some("move-type") {
            match item.list().and_then(|l| l.get(1)).and_then(Sexp::sym) {
                Some(name) => {
                    if !cx.move_type_defs.contains(name) {
                        cx.move_type_defs.insert(name.to_string());
                    }
                    move_type = Some(cx.move_type(name));
                }
                None => cx.missing(item, "move type name", "(move-type NAME)"),
            }
            continue;
        }
        let Some(body) = item.list() else {
            cx.expected(
                item,
                "a move block (a list of instructions) or `(move-type NAME)`",
            );
            continue;
        };
        out.push(Block {
            move_type,
            body: instrs(cx, body),
            span: item.span,
            id: u32::MAX,
        });
    }
    out
}

/// Resolves a list of instructions (the `after-move` program).
pub fn resolve_instrs(cx: &mut Cx, items: &[Sexp]) -> Vec<Instr> {
    instrs(cx, items)
}

fn instrs(cx: &mut Cx, items: &[Sexp]) -> Vec<Instr> {
    items.iter().filter_map(|it| instr(cx, it)).collect()
}

fn instr(cx: &mut Cx, node: &Sexp) -> Option<Instr> {
    match &node.kind {
        SexpKind::Sym(s) => bare_instr(cx, s, node),
        SexpKind::Int(_) => {
            let name = node.atom_text().unwrap_or_default();
            if let Some(&p) = cx.positions.get(&name) {
                return Some(Instr::Goto(p));
            }
            cx.expected(node, "an instruction, a direction or a position");
            None
        }
        SexpKind::Str(_) => {
            cx.expected(node, "an instruction");
            None
        }
        SexpKind::List(items) => list_instr(cx, node, items),
    }
}

fn bare_instr(cx: &mut Cx, s: &str, node: &Sexp) -> Option<Instr> {
    let add = |copy, partial| {
        Some(Instr::Add(AddSpec {
            copy,
            partial,
            promote: Vec::new(),
            move_type: None,
            finally: None,
            must_continue: false,
        }))
    };
    match s {
        "mark" => Some(Instr::Mark),
        "back" => Some(Instr::Back),
        "from" => Some(Instr::From),
        "to" => Some(Instr::To),
        "cascade" => Some(Instr::Cascade),
        "capture" => Some(Instr::Capture(None)),
        "flip" => Some(Instr::Flip(None)),
        "change-owner" => Some(Instr::ChangeOwner(None)),
        "add" => add(false, false),
        "add-copy" => add(true, false),
        "add-partial" => add(false, true),
        "add-copy-partial" => add(true, true),
        _ => {
            if let Some(&d) = cx.dirs.get(s) {
                return Some(Instr::Step(d));
            }
            if let Some(&p) = cx.positions.get(s) {
                return Some(Instr::Goto(p));
            }
            if cx.killed.contains(s) {
                cx.error(
                    node.span,
                    format!("position `{s}` was removed by `kill-positions`"),
                );
                return None;
            }
            let mut known: Vec<&str> = BARE_INSTRS.to_vec();
            known.extend(cx.dirs.keys().map(String::as_str));
            known.extend(cx.positions.keys().map(String::as_str));
            let d = Diagnostic::error(
                node.span,
                format!("unknown instruction, direction or position `{s}`"),
            )
            .with_label("expected a direction, a position or an instruction such as `add`");
            let d = cx.suggest(d, s, &known);
            cx.diags.push(d);
            None
        }
    }
}

fn list_instr(cx: &mut Cx, node: &Sexp, items: &[Sexp]) -> Option<Instr> {
    let Some(head) = items.first().and_then(Sexp::sym) else {
        if items.is_empty() {
            cx.error(node.span, "empty instruction `()`");
        } else {
            cx.expected(&items[0], "an instruction name");
        }
        return None;
    };
    let args = &items[1..];
    let arity = |cx: &mut Cx, min: usize, max: usize, shape: &str| -> bool {
        if args.len() < min || args.len() > max {
            cx.error(
                node.span,
                format!("`{head}` takes {}", count_words(min, max)),
            )
            .primary
            .text = format!("expected `{shape}`");
            return false;
        }
        true
    };
    let instr = match head {
        "verify" => {
            if !arity(cx, 1, 1, "(verify CONDITION)") {
                return None;
            }
            Instr::Verify(cond(cx, &args[0])?)
        }
        "if" => {
            if !arity(cx, 1, usize::MAX, "(if CONDITION INSTR... [else INSTR...])") {
                return None;
            }
            let c = cond(cx, &args[0]);
            let rest = &args[1..];
            let split = rest.iter().position(|i| i.sym() == Some("else"));
            let (then, els) = match split {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &[][..]),
            };
            let then = instrs(cx, then);
            let els = instrs(cx, els);
            Instr::If(c?, then, els)
        }
        "while" => {
            if !arity(cx, 1, usize::MAX, "(while CONDITION INSTR...)") {
                return None;
            }
            let c = cond(cx, &args[0]);
            let body = instrs(cx, &args[1..]);
            Instr::While(c?, body)
        }
        "opposite" => {
            if !arity(cx, 1, 1, "(opposite DIRECTION)") {
                return None;
            }
            Instr::Opposite(cx.dir(&args[0])?)
        }
        "go" => {
            if !arity(cx, 1, 1, "(go from|to|mark|last-from|last-to)") {
                return None;
            }
            let t = match args[0].sym() {
                Some("from") => GoTarget::From,
                Some("to") => GoTarget::To,
                Some("mark") => GoTarget::Mark,
                Some("last-from") => GoTarget::LastFrom,
                Some("last-to") => GoTarget::LastTo,
                _ => {
                    cx.expected(
                        &args[0],
                        "one of `from`, `to`, `mark`, `last-from`, `last-to`",
                    );
                    return None;
                }
            };
            Instr::Go(t)
        }
        "capture" | "flip" | "change-owner" => {
            if !arity(cx, 0, 1, &format!("({head} [POSITION|DIRECTION])")) {
                return None;
            }
            let t = match args.first() {
                Some(a) => Some(target(cx, a)?),
                None => None,
            };
            match head {
                "capture" => Instr::Capture(t),
                "flip" => Instr::Flip(t),
                _ => Instr::ChangeOwner(t),
            }
        }
        "change-type" => {
            if !arity(cx, 1, 2, "(change-type PIECE [POSITION|DIRECTION])") {
                return None;
            }
            let piece = cx.piece(&args[0]);
            let t = match args.get(1) {
                Some(a) => Some(target(cx, a)?),
                None => None,
            };
            Instr::ChangeType(piece?, t)
        }
        "create" => {
            if !arity(cx, 0, 3, "(create [PLAYER] [PIECE] [POSITION|DIRECTION])") {
                return None;
            }
            let (mut player, mut piece, mut at) = (None, None, None);
            for a in args {
                let name = a.atom_text().unwrap_or_default();
                if let (Some(&p), None) = (cx.players.get(&name), player) {
                    player = Some(p);
                } else if let (Some(&p), None) = (cx.pieces.get(&name), piece) {
                    piece = Some(p);
                } else if at.is_none()
                    && (cx.dirs.contains_key(&name) || cx.positions.contains_key(&name))
                {
                    at = target(cx, a);
                } else {
                    let mut known: Vec<&str> = cx.players.keys().map(String::as_str).collect();
                    known.extend(cx.pieces.keys().map(String::as_str));
                    let d = Diagnostic::error(
                        a.span,
                        format!("`{name}` is not a player, a piece, a position or a direction"),
                    )
                    .with_label("expected `(create [PLAYER] [PIECE] [POSITION|DIRECTION])`");
                    let d = cx.suggest(d, &name, &known);
                    cx.diags.push(d);
                    return None;
                }
            }
            Instr::Create { player, piece, at }
        }
        "set-attribute" => {
            if !arity(
                cx,
                2,
                3,
                "(set-attribute NAME CONDITION [POSITION|DIRECTION])",
            ) {
                return None;
            }
            let attr = attribute(cx, &args[0]);
            let value = cond(cx, &args[1]);
            let t = match args.get(2) {
                Some(a) => Some(target(cx, a)?),
                None => None,
            };
            Instr::SetAttribute(attr?, value?, t)
        }
        "set-flag" => {
            if !arity(cx, 2, 2, "(set-flag NAME CONDITION)") {
                return None;
            }
            let name = cx.sym(&args[0], "a flag name")?;
            cx.flag_set(name, false);
            let f = cx.plain_flag(&args[0], name);
            Instr::SetFlag(f?, cond(cx, &args[1])?)
        }
        "set-position-flag" => {
            if !arity(
                cx,
                2,
                3,
                "(set-position-flag NAME CONDITION [POSITION|DIRECTION])",
            ) {
                return None;
            }
            let name = cx.sym(&args[0], "a flag name")?;
            cx.flag_set(name, true);
            let f = cx.flag(name);
            let value = cond(cx, &args[1]);
            let t = match args.get(2) {
                Some(a) => Some(target(cx, a)?),
                None => None,
            };
            Instr::SetPositionFlag(f, value?, t)
        }
        "add" | "add-copy" | "add-partial" | "add-copy-partial" => {
            let partial = head.ends_with("partial");
            let mut spec = AddSpec {
                copy: head.starts_with("add-copy"),
                partial,
                promote: Vec::new(),
                move_type: None,
                finally: None,
                must_continue: false,
            };
            for a in args {
                if a.head() == Some("must-continue") && partial {
                    spec.must_continue = true;
                    continue;
                }
                if a.head() == Some("finally") && partial {
                    // `(finally T)`: promote to T if no continuation follows.
                    match a.list().and_then(|l| l.get(1)) {
                        Some(p) => spec.finally = cx.piece(p),
                        None => cx.missing(a, "piece", "(finally PIECE)"),
                    }
                    continue;
                }
                let Some(name) = cx.sym(a, "a piece or move type name") else {
                    continue;
                };
                if let Some(&p) = cx.pieces.get(name) {
                    spec.promote.push(p);
                } else if cx.players.contains_key(name) {
                    cx.warn(
                        a.span,
                        format!("ignored: `{head}` with a player is a Dagaz extension"),
                    );
                } else if partial && spec.move_type.is_none() {
                    spec.move_type = Some(cx.move_type_use(name, a.span));
                } else {
                    let d = cx.unknown("piece", a, cx.pieces.keys());
                    cx.diags.push(d);
                }
            }
            Instr::Add(spec)
        }
        "set" | "inc" | "dec" => {
            let shape = if head == "set" {
                "(set NAME EXPRESSION)"
            } else {
                "(inc NAME [EXPRESSION])"
            };
            let (min, max) = if head == "set" { (2, 2) } else { (1, 2) };
            if !arity(cx, min, max, shape) {
                return None;
            }
            let name = cx.sym(&args[0], "a counter or variable name")?.to_string();
            let value = match (head, args.get(1)) {
                ("set", Some(e)) => expr(cx, e, true)?,
                (_, by) => {
                    let by = match by {
                        Some(e) => expr(cx, e, true)?,
                        None => Expr::Int(1),
                    };
                    let cur = named_value(cx, &name);
                    Expr::Arith(
                        if head == "inc" { '+' } else { '-' },
                        Box::new(cur),
                        Box::new(by),
                    )
                }
            };
            match cx.counters.get(&name) {
                Some(&c) => Instr::SetCounter(c, value),
                None => {
                    let n = cx.vars.len() as u16;
                    let v = *cx.vars.entry(name).or_insert(n);
                    Instr::SetVar(v, value)
                }
            }
        }
        "mark" | "back" | "from" | "to" | "cascade" if args.is_empty() => {
            bare_instr(cx, head, node)?
        }
        _ if cx.dirs.contains_key(head) || cx.positions.contains_key(head) => {
            let d = Diagnostic::error(
                node.span,
                format!("a move block inside a move block: `({head} ...)`"),
            )
            .with_label(format!(
                "`{head}` is a direction or position, not an instruction"
            ))
            .with_help("remove one pair of brackets around the block");
            cx.diags.push(d);
            return None;
        }
        _ => {
            let mut known: Vec<&str> = LIST_INSTRS.to_vec();
            known.extend(cx.dirs.keys().map(String::as_str));
            let d = Diagnostic::error(items[0].span, format!("unknown instruction `{head}`"))
                .with_label("expected an instruction such as `verify`, `if`, `while`, `add`");
            let d = cx.suggest(d, head, &known);
            cx.diags.push(d);
            return None;
        }
    };
    Some(instr)
}

fn count_words(min: usize, max: usize) -> String {
    match (min, max) {
        (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
        (a, usize::MAX) => format!("at least {a} argument{}", if a == 1 { "" } else { "s" }),
        (a, b) => format!("{a} to {b} arguments"),
    }
}

/// A direction (a step from here) or a named position.
fn target(cx: &mut Cx, node: &Sexp) -> Option<Target> {
    // Names are looked up without copying them (this runs for most instructions of a file).
    if let Some(name) = node.sym() {
        if let Some(&d) = cx.dirs.get(name) {
            return Some(Target::Dir(d));
        }
        if let Some(&p) = cx.positions.get(name) {
            return Some(Target::Pos(p));
        }
    }
    let name = node.atom_text().unwrap_or_default();
    if let Some(&d) = cx.dirs.get(&name) {
        return Some(Target::Dir(d));
    }
    if let Some(&p) = cx.positions.get(&name) {
        return Some(Target::Pos(p));
    }
    if let Some(items) = node.list() {
        // A direction expression: `(opposite DIRECTION)`.
        if node.head() == Some("opposite") && items.len() == 2 {
            return cx.dir(&items[1]).map(Target::Opposite);
        }
        cx.expected(node, "a position, a direction or `(opposite DIRECTION)`");
        return None;
    }
    let mut known: Vec<&str> = cx.dirs.keys().map(String::as_str).collect();
    known.extend(cx.positions.keys().map(String::as_str));
    let d = Diagnostic::error(node.span, format!("unknown position or direction `{name}`"))
        .with_label("expected a position or a direction");
    let d = cx.suggest(d, &name, &known);
    cx.diags.push(d);
    None
}

fn attribute(cx: &mut Cx, node: &Sexp) -> Option<AttrId> {
    let name = cx.sym(node, "an attribute name")?;
    match cx.attrs.get(name) {
        Some(&a) => Some(a),
        None => {
            let d = cx.unknown("attribute", node, cx.attrs.keys());
            cx.diags.push(d);
            None
        }
    }
}

/// Resolves a condition.
pub fn cond(cx: &mut Cx, node: &Sexp) -> Option<Cond> {
    match &node.kind {
        SexpKind::Sym(s) => named_cond(cx, s, &[], node),
        SexpKind::List(items) => {
            let Some(head) = items.first().and_then(Sexp::sym) else {
                cx.expected(node, "a condition");
                return None;
            };
            let args = &items[1..];
            match head {
                "not" => {
                    if args.len() != 1 {
                        cx.error(node.span, "`not` takes one condition");
                        return None;
                    }
                    Some(Cond::Not(Box::new(cond(cx, &args[0])?)))
                }
                "<" | "<=" | "=" | ">=" | ">" | "/=" => {
                    let [a, b] = args else {
                        cx.error(node.span, format!("`{head}` compares two numbers"));
                        return None;
                    };
                    let (a, b) = (expr(cx, a, true), expr(cx, b, true));
                    Some(Cond::Compare(cmp_op(head), a?, b?))
                }
                // Undeclared types never move: warned about, and left out.
                "moved-piece?" => Some(Cond::MovedPiece(
                    args.iter()
                        .filter_map(|p| cx.soft("it never matches", |cx| cx.piece(p)))
                        .collect(),
                )),
                "and" | "or" => {
                    let parts: Vec<Option<Cond>> = args.iter().map(|a| cond(cx, a)).collect();
                    let parts: Option<Vec<Cond>> = parts.into_iter().collect();
                    Some(if head == "and" {
                        Cond::And(parts?)
                    } else {
                        Cond::Or(parts?)
                    })
                }
                _ => named_cond(cx, head, args, node),
            }
        }
        _ => {
            cx.expected(node, "a condition");
            None
        }
    }
}

fn named_cond(cx: &mut Cx, name: &str, args: &[Sexp], node: &Sexp) -> Option<Cond> {
    if let Some(c) = base_cond(cx, name, args, node) {
        return c;
    }
    if let Some(rest) = name.strip_prefix("not-") {
        if let Some(c) = base_cond(cx, rest, args, node) {
            return c.map(|c| Cond::Not(Box::new(c)));
        }
    }
    let mut known: Vec<&str> = CONDS.to_vec();
    known.extend(["true", "false", "and", "or", "not"]);
    known.extend(cx.attrs.keys().map(String::as_str));
    let d = Diagnostic::error(node.span, format!("unknown condition `{name}`")).with_label(
        "expected a condition such as `empty?`, `enemy?`, `(in-zone? ZONE)` or an attribute name",
    );
    let d = cx.suggest(d, name, &known);
    cx.diags.push(d);
    None
}

/// `None` when `name` is not a condition; `Some(None)` when it is one but had an error.
fn base_cond(cx: &mut Cx, name: &str, args: &[Sexp], node: &Sexp) -> Option<Option<Cond>> {
    let opt_target = |cx: &mut Cx, args: &[Sexp]| -> Option<Option<Target>> {
        match args {
            [] => Some(None),
            [a] => target(cx, a).map(Some),
            _ => {
                cx.error(
                    node.span,
                    format!("`{name}` takes at most one position or direction"),
                );
                None
            }
        }
    };
    let c = match name {
        "true" if args.is_empty() => Some(Cond::Const(true)),
        "capture-made?" if args.is_empty() => Some(Cond::CaptureMade),
        "false" if args.is_empty() => Some(Cond::Const(false)),
        "empty?" => opt_target(cx, args).map(Cond::Empty),
        "friend?" => opt_target(cx, args).map(Cond::Friend),
        "enemy?" => opt_target(cx, args).map(Cond::Enemy),
        "neutral?" => opt_target(cx, args).map(Cond::Neutral),
        "on-board?" => opt_target(cx, args).map(Cond::OnBoard),
        "last-from?" => opt_target(cx, args).map(Cond::LastFrom),
        "last-to?" => opt_target(cx, args).map(Cond::LastTo),
        "marked?" => opt_target(cx, args).map(Cond::Marked),
        "adjacent-to-enemy?" => opt_target(cx, args).map(Cond::AdjacentToEnemy),
        "goal-position?" => opt_target(cx, args).map(Cond::GoalPosition),
        "piece?" | "in-zone?" | "position?" | "flag?" | "position-flag?" => {
            let Some(first) = args.first() else {
                cx.error(node.span, format!("`{name}` needs an argument"))
                    .primary
                    .text = format!("expected `({name} NAME [POSITION|DIRECTION])`");
                return Some(None);
            };
            match name {
                "piece?" => {
                    // A piece type the file never declares is never there (Zillions loads
                    // such files): the test is false, with a warning.
                    let p = cx.soft("the condition is always false", |cx| cx.piece(first));
                    let t = opt_target(cx, &args[1..]);
                    if p.is_none() && first.sym().is_some() {
                        return Some(t.map(|_| Cond::Const(false)));
                    }
                    p.zip(t).map(|(p, t)| Cond::Piece(p, t))
                }
                "in-zone?" => {
                    let z = cx.soft("the condition is always false", |cx| cx.zone(first));
                    if z.is_none() && first.sym().is_some() {
                        let t = opt_target(cx, &args[1..]);
                        return Some(t.map(|_| Cond::Const(false)));
                    }
                    let t = opt_target(cx, &args[1..]);
                    z.zip(t).map(|(z, t)| Cond::InZone(z, t))
                }
                "position?" => {
                    let p = cx.position(first);
                    let t = opt_target(cx, &args[1..]);
                    p.zip(t).map(|(p, t)| Cond::Position(p, t))
                }
                "flag?" => {
                    if args.len() > 1 {
                        cx.error(node.span, "`flag?` takes one flag name");
                        return Some(None);
                    }
                    let name = cx.sym(first, "a flag name").map(str::to_string);
                    name.and_then(|name| {
                        cx.flag_reads.push((name.clone(), false, first.span));
                        cx.plain_flag(first, &name).map(Cond::Flag)
                    })
                }
                _ => {
                    let f = cx.sym(first, "a flag name").map(str::to_string);
                    if let Some(f) = &f {
                        cx.flag_reads.push((f.clone(), true, first.span));
                    }
                    let t = opt_target(cx, &args[1..]);
                    f.zip(t).map(|(f, t)| Cond::PositionFlag(cx.flag(&f), t))
                }
            }
        }
        "attacked?" | "defended?" => {
            let mut mt = None;
            let mut t = None;
            for a in args {
                let n = a.atom_text().unwrap_or_default();
                if t.is_none() && (cx.dirs.contains_key(&n) || cx.positions.contains_key(&n)) {
                    t = target(cx, a);
                } else if mt.is_none() && a.sym().is_some() {
                    mt = Some(cx.move_type_use(&n, a.span));
                } else {
                    cx.expected(a, "a move type, a position or a direction");
                    return Some(None);
                }
            }
            cx.asks_attacked = true;
            Some(if name == "attacked?" {
                Cond::Attacked(mt, t)
            } else {
                Cond::Defended(mt, t)
            })
        }
        _ => {
            let &a = cx.attrs.get(name)?;
            opt_target(cx, args).map(|t| Cond::Attribute(a, t))
        }
    };
    Some(c)
}

/// The comparison operator for `<`, `<=`, `=`, `>=`, `>`, `/=`.
pub fn cmp_op(head: &str) -> CmpOp {
    match head {
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        "=" => CmpOp::Eq,
        ">=" => CmpOp::Ge,
        ">" => CmpOp::Gt,
        _ => CmpOp::Ne,
    }
}

/// The current value of a counter or local variable, as an expression.
fn named_value(cx: &mut Cx, name: &str) -> Expr {
    match cx.counters.get(name) {
        Some(&c) => Expr::Counter(c),
        None => {
            let n = cx.vars.len() as u16;
            Expr::Var(*cx.vars.entry(name.to_string()).or_insert(n))
        }
    }
}

/// Resolves an integer expression; `locals` allows block-local variables (not in goals).
pub fn expr(cx: &mut Cx, node: &Sexp, locals: bool) -> Option<Expr> {
    match &node.kind {
        SexpKind::Int(n) => Some(Expr::Int(*n)),
        SexpKind::Sym(s) => {
            if let Some(&c) = cx.counters.get(s.as_ref()) {
                return Some(Expr::Counter(c));
            }
            match s.as_ref() {
                "here" => return Some(Expr::Here),
                "move-from" => return Some(Expr::MoveFrom),
                "move-to" => return Some(Expr::MoveTo),
                _ => {}
            }
            if let Ok(n) = s.parse::<i64>() {
                return Some(Expr::Int(n));
            }
            if locals {
                if let Some(&v) = cx.vars.get(s.as_ref()) {
                    return Some(Expr::Var(v));
                }
            }
            let mut known: Vec<&str> = cx.counters.keys().map(String::as_str).collect();
            if locals {
                known.extend(cx.vars.keys().map(String::as_str));
            }
            let d = Diagnostic::error(node.span, format!("unknown counter or variable `{s}`"))
                .with_label(if locals {
                    "set a variable with `(set NAME ...)` before reading it"
                } else {
                    "declare it with `(counter NAME)`"
                });
            let d = cx.suggest(d, s, &known);
            cx.diags.push(d);
            None
        }
        SexpKind::List(items) => {
            let Some(head) = items.first().and_then(Sexp::sym) else {
                cx.expected(
                    node,
                    "a number, a counter or an expression such as `(+ a 1)`",
                );
                return None;
            };
            let args = &items[1..];
            match head {
                "+" | "-" | "*" | "/" => {
                    let parts: Option<Vec<Expr>> = args
                        .iter()
                        .map(|a| expr(cx, a, locals))
                        .collect::<Vec<_>>()
                        .into_iter()
                        .collect();
                    let mut parts = parts?.into_iter();
                    let Some(first) = parts.next() else {
                        cx.error(node.span, format!("`{head}` needs at least one number"));
                        return None;
                    };
                    let op = head.chars().next().unwrap_or('+');
                    let first = if op == '-' && args.len() == 1 {
                        Expr::Arith('-', Box::new(Expr::Int(0)), Box::new(first))
                    } else {
                        first
                    };
                    Some(parts.fold(first, |acc, e| Expr::Arith(op, Box::new(acc), Box::new(e))))
                }
                "count-pieces" => {
                    let mut owner = Owner::Mine;
                    let mut pieces = Vec::new();
                    let mut zone = None;
                    let mut i = 0;
                    while i < args.len() {
                        match args[i].sym() {
                            Some("mine") => owner = Owner::Mine,
                            Some("opponent") => owner = Owner::Opponent,
                            Some("any") => owner = Owner::Any,
                            Some("in") => {
                                zone = args.get(i + 1).and_then(|z| cx.zone(z));
                                i += 1;
                            }
                            _ => pieces.extend(cx.piece(&args[i])),
                        }
                        i += 1;
                    }
                    Some(Expr::CountPieces(owner, pieces, zone))
                }
                _ => {
                    cx.expected(node, "a number, a counter, `(+ a b)`, `(- a b)`, `(* a b)`, `(/ a b)` or `(count-pieces ...)`");
                    None
                }
            }
        }
        SexpKind::Str(_) => {
            cx.expected(node, "a number");
            None
        }
    }
}
