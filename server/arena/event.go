package arena

import "time"

// Kind is what an Event records.
type Kind string

// The kinds of events, each with the fields of Event it uses.
const (
	// Join: Player joins (or, after pausing, comes back) with Rating, their
	// rating at the arena's speed as they join.
	Join Kind = "join"
	// Pause: Player is paired no more until they join again; their score
	// stays in the standings. A game they are playing still counts.
	// Elsewhere says why: the server paused them as they play, or seek
	// to play, outside the arena; without it (and in a log written
	// before it was kept) the pause is their own — they paused, or left.
	Pause Kind = "pause"
	// Withdraw: Player leaves. Before the start they are gone from the
	// arena; after it, as on lichess, a withdrawal is a pause (the score
	// stays, and joining again resumes).
	Withdraw Kind = "withdraw"
	// Pair: a pairing wave, Pairs, each a game just created.
	Pair Kind = "pair"
	// Berserk: Player berserks in Game (before their first move; the
	// game's host decides that and halves the clock).
	Berserk Kind = "berserk"
	// Finish: Game ended with Result, as PGN writes it (pgn.WhiteWins,
	// pgn.BlackWins, pgn.Draw, or pgn.Unknown for an aborted game, which
	// scores nothing) after Plies half-moves;
	// Absent, for an aborted game, is the player who never moved (paused,
	// as lichess withdraws a player who does not start their game).
	Finish Kind = "finish"
)

// Event is one thing that happened in an arena, in the order the arena's
// log keeps them. One type for every kind, so that a log is a list of one
// JSON shape; Kind says which fields count.
type Event struct {
	Kind   Kind      `json:"kind"`
	At     time.Time `json:"at"`
	Player string    `json:"player,omitempty"`
	Rating int       `json:"rating,omitempty"`
	Pairs  []Pairing `json:"pairs,omitempty"`
	Game   string    `json:"game,omitempty"`
	Result string    `json:"result,omitempty"`
	Plies  int       `json:"plies,omitempty"`
	Absent string    `json:"absent,omitempty"`
	// Elsewhere marks a Pause the server made because Player plays
	// outside the arena (see Pause).
	Elsewhere bool `json:"elsewhere,omitempty"`
}

// Pairing is one game of a pairing wave: who has White and Black, with
// the ratings the arena knew them by (their Join's), which the standings'
// performance uses. Game is the game's id, given by whoever creates it
// (Arena.Pair leaves it empty).
type Pairing struct {
	Game        string `json:"game,omitempty"`
	White       string `json:"white"`
	Black       string `json:"black"`
	WhiteRating int    `json:"white_rating"`
	BlackRating int    `json:"black_rating"`
}
