//! The resolved game definition: the output of `resolve`, immutable, with every name turned
//! into a small integer id. Strings survive only for display.

use crate::source::Span;

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident($int:ty);)*) => {$(
        #[$doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(pub $int);
        impl $name {
            /// The id as an index into its table.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}

id_type! {
    /// A position (square, cell, dummy) of the board.
    PosId(u16);
    /// A direction name of the board.
    DirId(u16);
    /// A player, in `players` order.
    PlayerId(u8);
    /// A piece type.
    PieceId(u16);
    /// A zone name (its squares differ per player).
    ZoneId(u16);
    /// A piece attribute (a persistent boolean carried by pieces).
    AttrId(u16);
    /// A scratch flag of a move program (`set-flag`, `set-position-flag`).
    FlagId(u16);
    /// A move type (`move-type`, `add-partial`, turn-order restrictions).
    MoveTypeId(u16);
}

impl AttrId {
    /// The attribute's bit in a cell's `attrs` (a piece carries at most 32 attributes).
    #[inline]
    pub fn bit(self) -> u32 {
        1 << (self.0 % 32)
    }
}

/// A whole game or variant, resolved.
#[derive(Clone, Debug)]
pub struct GameDef {
    /// The title.
    pub title: String,
    /// Some program asks `attacked?` or `defended?` (the engine then derives attack tables).
    pub asks_attacked: bool,
    /// Help texts: description, history, strategy (empty when absent).
    pub description: String,
    /// History text.
    pub history: String,
    /// Strategy text.
    pub strategy: String,
    /// Players in `players` order.
    pub players: Vec<Player>,
    /// Who moves when.
    pub turn_order: TurnOrder,
    /// Geometry.
    pub board: Board,
    /// Piece types in declaration order.
    pub pieces: Vec<PieceDef>,
    /// The starting position.
    pub setup: Setup,
    /// Move-type names; ids index this.
    pub move_types: Vec<String>,
    /// `move-priorities`, highest first.
    pub move_priorities: Vec<MoveTypeId>,
    /// Options that change the rules, and the ones kept for display.
    pub options: Options,
    /// Goals in file order.
    pub goals: Vec<Goal>,
    /// `(capture-precedence …)` (zrf extension): criteria applied in order to the legal moves.
    pub capture_precedence: Vec<Precedence>,
    /// Counters (zrf extension).
    pub counters: Vec<CounterDef>,
    /// The `after-move` program, run for every whole turn (zrf extension).
    pub after_move: Vec<Instr>,
    /// Names of block-local variables.
    pub vars: Vec<String>,
    /// Attribute names; ids index this.
    pub attributes: Vec<String>,
    /// Flag names (both kinds share one table); ids index this.
    pub flags: Vec<String>,
}

/// One player.
#[derive(Clone, Debug)]
pub struct Player {
    /// The name as written, without the `?` of a random player.
    pub name: String,
    /// A random player (`?Dice`) picks uniformly among its legal moves.
    pub random: bool,
}

/// The turn sequence: `once` is played first, then `cycle` repeats for ever.
#[derive(Clone, Debug, Default)]
pub struct TurnOrder {
    /// Entries before `repeat`.
    pub once: Vec<TurnEntry>,
    /// Entries after `repeat` (all entries when there is no `repeat`).
    pub cycle: Vec<TurnEntry>,
}

/// One turn: who moves, whose pieces, and which move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnEntry {
    /// The player making the move.
    pub mover: PlayerId,
    /// The owner of the pieces moved (usually the mover).
    pub owner: PlayerId,
    /// Only moves of this type, if given.
    pub move_type: Option<MoveTypeId>,
}

/// A position's declaration.
#[derive(Clone, Debug)]
pub struct PosDef {
    /// The name (`a1`).
    pub name: String,
    /// Declared with `dummy`: not shown.
    pub dummy: bool,
    /// The grid and per-dimension indices, for grid positions.
    pub grid: Option<(u16, [u16; MAX_DIMS])>,
    /// The pixel rectangle Zillions draws the position in (`x1 y1 x2 y2`), when the file
    /// gives one (`start-rectangle` and the dimension offsets, or the `positions` entry).
    pub rect: Option<[i32; 4]>,
}

/// The most dimensions a grid may have.
pub const MAX_DIMS: usize = 8;

/// A grid's labels, kept for diagrams and notation.
#[derive(Clone, Debug)]
pub struct GridDef {
    /// Labels per dimension, in the order the file lists them.
    pub labels: Vec<Vec<String>>,
}

/// A named set of positions, different per player.
#[derive(Clone, Debug)]
pub struct ZoneDef {
    /// The name.
    pub name: String,
    /// Positions per player (empty for a player that has no such zone).
    pub positions: Vec<Vec<PosId>>,
}

/// Board geometry with per-player direction tables.
#[derive(Clone, Debug)]
pub struct Board {
    /// Positions in board order (grids first, row by row, then explicit positions).
    pub positions: Vec<PosDef>,
    /// Direction names.
    pub directions: Vec<String>,
    /// Grids, for display.
    pub grids: Vec<GridDef>,
    /// Zones.
    pub zones: Vec<ZoneDef>,
    /// `opposite[d]`: the direction that reverses `d`, if one does.
    pub opposite: Vec<Option<DirId>>,
    /// `next[(player * n_dirs + dir) * n_pos + pos]`: the linked position or `NONE`.
    pub next: Vec<u16>,
    /// `zone_bits[(zone * n_players + player) * words + pos / 64]`: membership bitsets.
    pub zone_bits: Vec<u64>,
    /// Number of players (for indexing `next`).
    pub n_players: usize,
    /// Declared square numbers for notation (`numbering`, a zrf extension); 0 = none.
    pub numbers: Vec<u16>,
    /// `(image FILE...)`: the board's bitmaps as the file names them (relative to the rules
    /// file, often with `\` separators); the first is the default, the others alternatives.
    /// Display only.
    pub images: Vec<String>,
}

/// Marks "no position" in `Board::next`.
pub const NONE: u16 = u16::MAX;

/// The squares of a pattern on the board: [`Board::trace`].
pub struct Trace<'a> {
    board: &'a Board,
    player: PlayerId,
    dirs: &'a [DirId],
    next: Option<PosId>,
    k: usize,
}

impl Iterator for Trace<'_> {
    type Item = PosId;

    #[inline]
    fn next(&mut self) -> Option<PosId> {
        let at = self.next?;
        self.next = self
            .dirs
            .get(self.k)
            .and_then(|&d| self.board.step(self.player, d, at));
        self.k += 1;
        Some(at)
    }
}

impl Board {
    /// Number of positions.
    pub fn n_pos(&self) -> usize {
        self.positions.len()
    }

    /// The position one step from `pos` along `dir` as `player` sees it (symmetry applied).
    #[inline]
    pub fn step(&self, player: PlayerId, dir: DirId, pos: PosId) -> Option<PosId> {
        let n_pos = self.positions.len();
        let i = (player.idx() * self.directions.len() + dir.idx()) * n_pos + pos.idx();
        match self.next[i] {
            NONE => None,
            p => Some(PosId(p)),
        }
    }

    /// The squares of a pattern laid from `start` as `player` sees it: `start`, then one step
    /// along each of `dirs` in turn. It ends early where a step leaves the board, so the
    /// pattern fits only if it yields `dirs.len() + 1` squares.
    pub fn trace<'a>(&'a self, player: PlayerId, start: PosId, dirs: &'a [DirId]) -> Trace<'a> {
        Trace {
            board: self,
            player,
            dirs,
            next: Some(start),
            k: 0,
        }
    }

    /// Whether `pos` is in `zone` as defined for `player`.
    #[inline]
    pub fn in_zone(&self, zone: ZoneId, player: PlayerId, pos: PosId) -> bool {
        let words = self.positions.len().div_ceil(64);
        let i = (zone.idx() * self.n_players + player.idx()) * words + pos.idx() / 64;
        self.zone_bits[i] >> (pos.idx() % 64) & 1 == 1
    }

    /// The id of a position name (for tools and tests; the engine never looks up names).
    pub fn pos_id(&self, name: &str) -> Option<PosId> {
        self.positions
            .iter()
            .position(|p| p.name == name)
            .map(|i| PosId(i as u16))
    }
}

/// The largest magnitude `(value N)` accepts (a thousand units).
pub const MAX_PIECE_VALUE: u32 = 100_000;

/// One piece type.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The name.
    pub name: String,
    /// Help text.
    pub help: String,
    /// Description text.
    pub description: String,
    /// The notation letter, if given.
    pub notation: Option<String>,
    /// Attributes this type declares, with their defaults.
    pub attributes: Vec<(AttrId, bool)>,
    /// Move blocks.
    pub moves: Vec<Block>,
    /// Drop blocks.
    pub drops: Vec<Block>,
    /// Declared `(dummy)`.
    pub dummy: bool,
    /// `(captured-as TYPE [ATTRIBUTE])` (zrf extension): a recycled capture of this piece
    /// enters the store as TYPE (only when the attribute is set, if one is named).
    pub captured_as: Option<(PieceId, Option<AttrId>)>,
    /// `(value N)` (zrf extension): the piece's worth for the computer player, in hundredths
    /// of a unit (`(value 900)` for a chess queen); `None` lets the player derive it.
    pub value: Option<i32>,
    /// `(image PLAYER FILE... ...)`: each player's bitmaps as the file names them (the first
    /// is the default, the others alternatives). Display only.
    pub images: Vec<(PlayerId, Vec<String>)>,
    /// The `(piece …)` form.
    pub span: Span,
}

/// One move or drop block: a program, tagged with its move type.
#[derive(Clone, Debug)]
pub struct Block {
    /// The `move-type` in force where the block stands.
    pub move_type: Option<MoveTypeId>,
    /// The instructions.
    pub body: Vec<Instr>,
    /// The block's source.
    pub span: Span,
    /// The block's number among the game's move and drop blocks, given by the engine
    /// (`Rules::new`) to find its specialised tree in the `Rules` that owns the block
    /// (`u32::MAX` until then: the block runs through the plain interpreter).
    pub id: u32,
}

/// A position given either absolutely or as a step from the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A named position.
    Pos(PosId),
    /// One step along a direction.
    Dir(DirId),
    /// One step along the direction opposite to one (`(empty? (opposite n))`).
    Opposite(DirId),
}

/// Where `go` jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoTarget {
    /// The from-square of this move.
    From,
    /// The pending destination.
    To,
    /// The mark.
    Mark,
    /// The from-square of the previous move.
    LastFrom,
    /// The destination of the previous move.
    LastTo,
}

/// What an `add`-family instruction emits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddSpec {
    /// `add-copy`: the piece also stays where it was.
    pub copy: bool,
    /// `add-partial`: the same piece moves again this turn.
    pub partial: bool,
    /// Promotion choices: one move per type (empty: no promotion).
    pub promote: Vec<PieceId>,
    /// The move type the continuation must use (partial moves only).
    pub move_type: Option<MoveTypeId>,
    /// `(finally T)` (zrf extension): promote to T if the chain ends with this step.
    pub finally: Option<PieceId>,
    /// `(must-continue)` (zrf extension): this step is legal only if the chain goes on from it.
    pub must_continue: bool,
}

/// One instruction of a move program.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// Step along a direction; no link ends the block.
    Step(DirId),
    /// Step against a direction.
    Opposite(DirId),
    /// Jump to a position.
    Goto(PosId),
    /// Remember the current position.
    Mark,
    /// Return to the mark.
    Back,
    /// Jump to a remembered position.
    Go(GoTarget),
    /// The piece here is the one that moves.
    From,
    /// The current position is the destination.
    To,
    /// Finish the current piece's sub-move; the piece here moves next.
    Cascade,
    /// Capture the piece here (or there).
    Capture(Option<Target>),
    /// Change the type of the piece here (or there).
    ChangeType(PieceId, Option<Target>),
    /// Give the piece here (or there) to the mover.
    ChangeOwner(Option<Target>),
    /// Give the piece here (or there) to the other side.
    Flip(Option<Target>),
    /// Create a piece.
    Create {
        /// Its owner (default: the mover).
        player: Option<PlayerId>,
        /// Its type (default: the moving piece's).
        piece: Option<PieceId>,
        /// Where (default: here).
        at: Option<Target>,
    },
    /// Set an attribute of the piece that will stand here after the move.
    SetAttribute(AttrId, Cond, Option<Target>),
    /// Set a scratch flag.
    SetFlag(FlagId, Cond),
    /// Set a scratch flag of a position.
    SetPositionFlag(FlagId, Cond, Option<Target>),
    /// Emit a move.
    Add(AddSpec),
    /// Set a block-local integer variable at once (zrf extension).
    SetVar(u16, Expr),
    /// Set a counter when the move is made (zrf extension).
    SetCounter(u16, Expr),
    /// End the block unless the condition holds.
    Verify(Cond),
    /// Branch.
    If(Cond, Vec<Instr>, Vec<Instr>),
    /// Loop.
    While(Cond, Vec<Instr>),
}

/// A condition of a move program.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// `true` or `false`.
    Const(bool),
    /// Negation (also the `not-` prefix).
    Not(Box<Cond>),
    /// All of.
    And(Vec<Cond>),
    /// Any of.
    Or(Vec<Cond>),
    /// No piece there.
    Empty(Option<Target>),
    /// A piece of the mover's side there.
    Friend(Option<Target>),
    /// A piece of another side there.
    Enemy(Option<Target>),
    /// A piece of a player outside the turn order there.
    Neutral(Option<Target>),
    /// A piece of this type there.
    Piece(PieceId, Option<Target>),
    /// The position (or the step) exists.
    OnBoard(Option<Target>),
    /// In the zone, as defined for the mover.
    InZone(ZoneId, Option<Target>),
    /// Was the from-square of the previous move.
    LastFrom(Option<Target>),
    /// Was the destination of the previous move.
    LastTo(Option<Target>),
    /// Is the mark.
    Marked(Option<Target>),
    /// Is this position.
    Position(PosId, Option<Target>),
    /// A scratch flag is set.
    Flag(FlagId),
    /// A position flag is set.
    PositionFlag(FlagId, Option<Target>),
    /// The piece there has the attribute set.
    Attribute(AttrId, Option<Target>),
    /// An enemy could capture there (with moves of a type, if given).
    Attacked(Option<MoveTypeId>, Option<Target>),
    /// A friend could capture there.
    Defended(Option<MoveTypeId>, Option<Target>),
    /// An enemy is one step away.
    AdjacentToEnemy(Option<Target>),
    /// The position is part of some `absolute-config` goal.
    GoalPosition(Option<Target>),
    /// An integer comparison (zrf extension).
    Compare(CmpOp, Expr, Expr),
    /// In `after-move`: the move just made captured something (zrf extension).
    CaptureMade,
    /// In `after-move`: the piece that made the move was of one of these types (zrf extension).
    MovedPiece(Vec<PieceId>),
}

/// An integer comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `=`
    Eq,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `/=`
    Ne,
}

impl CmpOp {
    /// Applies the comparison.
    pub fn test(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Eq => a == b,
            CmpOp::Ge => a >= b,
            CmpOp::Gt => a > b,
            CmpOp::Ne => a != b,
        }
    }
}

/// An integer expression (zrf extension).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Int(i64),
    /// A block-local variable.
    Var(u16),
    /// A counter (for a per-player counter: the current player's).
    Counter(u16),
    /// Arithmetic: `+`, `-`, `*`, `/` (division rounds toward minus infinity; by zero gives 0).
    Arith(char, Box<Expr>, Box<Expr>),
    /// `(count-pieces [mine|opponent|any] [PIECE...] [in ZONE])`: pieces on the board.
    CountPieces(Owner, Vec<PieceId>, Option<ZoneId>),
    /// `here`: the current position's index (-1 off the board).
    Here,
    /// `move-from`, in `after-move`: the index of the square the move started from.
    MoveFrom,
    /// `move-to`, in `after-move`: the index of the square the move ended on.
    MoveTo,
}

/// A persistent integer (zrf extension).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterDef {
    /// The name.
    pub name: String,
    /// One value per player instead of one per game.
    pub per_player: bool,
    /// The value at the start.
    pub start: i64,
}

/// The starting position.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// Pieces on the board.
    pub placements: Vec<Placement>,
    /// Off-board stores.
    pub off: Vec<OffCount>,
}

/// A piece placed at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Owner.
    pub player: PlayerId,
    /// Type.
    pub piece: PieceId,
    /// Where.
    pub pos: PosId,
}

/// The most pieces of one type one player may hold off the board in a setup (docs/semantics.md,
/// "Limits"); FEN holdings and the native text print one letter or word per piece.
pub const MAX_OFF: u32 = 10_000;

/// Pieces in a player's off-board store at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffCount {
    /// Owner.
    pub player: PlayerId,
    /// Type.
    pub piece: PieceId,
    /// How many.
    pub count: u32,
}

/// `"pass turn"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassTurn {
    /// No passing.
    #[default]
    No,
    /// Passing is always legal.
    Yes,
    /// Passing only when there is no other move.
    Forced,
}

/// Options with a meaning for the rules, plus the others as written.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `"pass turn"`.
    pub pass_turn: PassTurn,
    /// `"pass partial"`.
    pub pass_partial: bool,
    /// `"maximal captures"`: 0 off, 1 true, 2 the stronger rule.
    pub maximal_captures: u8,
    /// `"recycle captures"`: captured pieces go back to their owner's store.
    pub recycle_captures: bool,
    /// `(option "recycle captures" capturer)` (zrf extension): captured pieces change sides
    /// and go to the capturer's store, as in shogi and crazyhouse.
    pub recycle_to_capturer: bool,
    /// `"recycle promotions"`.
    pub recycle_promotions: bool,
    /// `"include off-pieces"`.
    pub include_off_pieces: bool,
    /// `"discard cascades"`.
    pub discard_cascades: bool,
    /// `"complete captures"` (zrf extension): a jump may end the capture only where no other
    /// landing of the same jump lets it go on (draughts kings must land where they can continue).
    pub complete_captures: bool,
    /// `"deferred captures"` (zrf extension, Dagaz's name): captured pieces stay on the board,
    /// marked, until the capture chain ends; they block and cannot be captured twice.
    pub deferred_captures: bool,
    /// `"huffing"` (zrf extension): the compelling filters (move priorities, maximal captures,
    /// capture precedence, completing a chain) no longer restrict the moves; a player who plays
    /// a move they would have rejected leaves the pieces that could have obeyed them liable to
    /// be removed (huffed) by the opponent before the opponent's own move.
    pub huffing: bool,
    /// Every option as written (name, value), for display.
    pub all: Vec<(String, String)>,
}

/// One capture-precedence criterion: each keeps only the moves that are best by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// `(most-captured)`: most pieces captured.
    MostCaptured,
    /// `(most-value (PIECE N)...)`: greatest total value captured (unlisted types are worth 1).
    MostValue(Vec<u32>),
    /// `(most-captured-of PIECE...)`: most pieces of these types captured.
    MostCapturedOf(Vec<PieceId>),
    /// `(moved-by PIECE...)`: moves made by a piece of these types.
    MovedBy(Vec<PieceId>),
}

/// What a goal does when its condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    /// The player wins.
    Win,
    /// The player loses.
    Loss,
    /// The game is drawn.
    Draw,
    /// The game ends and the player with more pieces wins.
    Count,
}

/// One goal.
#[derive(Clone, Debug)]
pub struct Goal {
    /// Win, loss, draw or count.
    pub kind: GoalKind,
    /// The players it is checked for.
    pub players: Vec<PlayerId>,
    /// The condition.
    pub cond: GoalCond,
    /// `(score W L)` (zrf extension): points for the winner (each player, in a draw) and for
    /// the others.
    pub score: Option<(u32, u32)>,
    /// The goal form.
    pub span: Span,
}

/// Whose pieces a configuration goal looks at, relative to the player it is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The player's own.
    Mine,
    /// Any other player's.
    Opponent,
    /// Anyone's.
    Any,
}

/// A piece pattern in a configuration goal: `King`, `(opponent King)`, `(not King)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    /// Whose.
    pub owner: Owner,
    /// Which types (any of).
    pub pieces: Vec<PieceId>,
    /// `(not …)`: the position must not hold such a piece.
    pub negated: bool,
}

/// A goal condition.
#[derive(Clone, Debug, PartialEq)]
pub enum GoalCond {
    /// `true`/`false`.
    Const(bool),
    /// Negation.
    Not(Box<GoalCond>),
    /// All of.
    And(Vec<GoalCond>),
    /// Any of.
    Or(Vec<GoalCond>),
    /// No legal move.
    Stalemated,
    /// No legal move while a royal piece of these types is attacked; makes them royal.
    Checkmated(Vec<PieceId>),
    /// The same position for the third time.
    Repetition,
    /// `(only-pieces (T...) ...)` (zrf extension): the pieces on the board and in hand, of all
    /// players together, are exactly one of these multisets of types (each sorted), as in
    /// chess's draw by insufficient material.
    OnlyPieces(Vec<Vec<PieceId>>),
    /// Exactly N of the player's pieces (of these types, or any) remain.
    PiecesRemaining(u32, Vec<PieceId>),
    /// Exactly N pieces of these types (or any) are on the board, all players together.
    TotalPieceCount(u32, Vec<PieceId>),
    /// The player's pieces of these types have all been captured.
    Captured(Vec<PieceId>),
    /// Such pieces stand on every listed position, or on some position of each listed zone.
    AbsoluteConfig {
        /// The pieces.
        spec: PieceSpec,
        /// Positions that must all be occupied.
        positions: Vec<PosId>,
        /// Zones where one occupied square is enough.
        zones: Vec<ZoneId>,
    },
    /// The pattern occurs somewhere: piece, direction, piece, ….
    RelativeConfig {
        /// The pieces, one more than the directions.
        pieces: Vec<PieceSpec>,
        /// The steps between them.
        dirs: Vec<DirId>,
    },
    /// An integer comparison over counters and piece counts (zrf extension).
    Compare(CmpOp, Expr, Expr),
}

impl GameDef {
    /// The id of a piece name (for tools and tests; the engine never looks up names).
    pub fn piece_id(&self, name: &str) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|p| p.name == name)
            .map(|i| PieceId(i as u16))
    }

    /// The id of a player name.
    pub fn player_id(&self, name: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| PlayerId(i as u8))
    }
}
