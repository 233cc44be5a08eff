package web

import (
	"flag"
	"runtime"
	"time"
)

// Limits are the server's named budgets: on one request, on one client (a
// client address, or a token), and on the whole server. A request past
// one is refused with an error that names it (its field name here, as in
// "MaxRequestDice"), and nothing is changed. Each is a flag of `fray
// serve` (see Flags); zero or less turns a budget off unless its comment
// says otherwise.
type Limits struct {
	// Per request.

	// MaxBody is the largest request body, in bytes, except an import.
	MaxBody int64
	// MaxImport is the largest log POST /api/encounters/import takes.
	MaxImport int64
	// MaxImportEvents is the most events an imported log may hold.
	MaxImportEvents int
	// MaxCombatants is the most combatants one encounter may hold.
	MaxCombatants int
	// MaxRolls is the most rolls one POST /api/roll may ask for.
	MaxRolls int
	// MaxRequestDice is the most dice one POST /api/roll may roll across
	// all its rolls (the expression's dice times the count).
	MaxRequestDice int
	// MaxTokensListed is the most tokens one Authorization header may hold.
	MaxTokensListed int

	// Per client.

	// Rate is how many requests per second one client address may make
	// on average, with or without tokens, and one token too; Burst is
	// how many at once.
	Rate  float64
	Burst int
	// MaxClientStreams is the most event streams one client address may
	// hold open at once, across all its tokens.
	MaxClientStreams int
	// MaxEncounterStreams is the most event streams one encounter may
	// have open at once.
	MaxEncounterStreams int
	// CreateRate is how many encounters (created or imported) one client
	// address may add per hour, up to an hour's worth at once.
	CreateRate float64
	// MaxClientWork is the most expensive requests (distributions,
	// imports) one client address may have in flight at once.
	MaxClientWork int

	// Per server.

	// MaxSubscribers is the most event streams open at once.
	MaxSubscribers int
	// SubscriberBuffer is how many changes a stream may fall behind
	// before it is dropped (the client reconnects and resumes).
	SubscriberBuffer int
	// MaxCached is the most encounters kept replayed in memory.
	MaxCached int
	// MaxCachedEvents is the most events the encounters kept in memory
	// may hold between them; the least recently used go first.
	MaxCachedEvents int
	// MaxEncounters is the most encounters the store may hold.
	MaxEncounters int
	// MaxStoredBytes is the most bytes the store may hold, as its Usage
	// counts them; past it, creates, imports, appends and new player
	// links are refused. Like MaxEncounters it is checked against a
	// figure read from the store once a minute and kept up to date with
	// the server's own writes in between.
	MaxStoredBytes int64
	// Workers is how many expensive distributions (POST /api/prob, odds)
	// and simulations (POST /api/encounters/{id}/sim) the server computes
	// at once, and WorkQueue how many more may wait for one (zero: none
	// waits); past that the request is answered 503 with Retry-After.
	// Cheap distributions do not wait for a worker. The default leaves
	// one core to everything else.
	Workers   int
	WorkQueue int
	// WorkWait is how long a queued distribution may wait for a worker
	// before it is answered 503.
	WorkWait time.Duration
	// MaxSimFights is the most fights one POST /api/encounters/{id}/sim
	// may play; each simulation takes one of the Workers.
	MaxSimFights int
	// MaxSimTime is the longest one simulation may play once it has a
	// worker; past it the request is answered 413.
	MaxSimTime time.Duration
}

// DefaultLimits returns the limits `fray serve` runs with: one GM
// server on a small machine.
func DefaultLimits() Limits {
	return Limits{
		MaxBody:             64 << 10,
		MaxImport:           16 << 20,
		MaxImportEvents:     50_000,
		MaxCombatants:       100,
		MaxRolls:            100,
		MaxRequestDice:      100_000,
		MaxTokensListed:     100,
		Rate:                50,
		Burst:               200,
		MaxClientStreams:    200,
		MaxEncounterStreams: 500,
		CreateRate:          120,
		MaxClientWork:       4,
		MaxSubscribers:      10_000,
		SubscriberBuffer:    64,
		MaxCached:           1000,
		MaxCachedEvents:     2_000_000,
		MaxEncounters:       100_000,
		MaxStoredBytes:      4 << 30,
		Workers:             max(1, runtime.GOMAXPROCS(0)-1),
		WorkQueue:           32,
		WorkWait:            5 * time.Second,
		MaxSimFights:        2_000,
		MaxSimTime:          10 * time.Second,
	}
}

// Flags registers each limit as a flag of fs, with l's values as the
// defaults; parsing fs sets l.
func (l *Limits) Flags(fs *flag.FlagSet) {
	i64 := func(p *int64, name, usage string) { fs.Int64Var(p, name, *p, usage) }
	in := func(p *int, name, usage string) { fs.IntVar(p, name, *p, usage) }
	i64(&l.MaxBody, "max-body", "the largest request body in `bytes`, except an import (MaxBody)")
	i64(&l.MaxImport, "max-import", "the largest imported log, in `bytes` (MaxImport)")
	in(&l.MaxImportEvents, "max-import-events", "the most `events` an imported log may hold (MaxImportEvents)")
	in(&l.MaxCombatants, "max-combatants", "the most combatants in one encounter (MaxCombatants)")
	in(&l.MaxRolls, "max-rolls", "the most rolls one roll request may ask for (MaxRolls)")
	in(&l.MaxRequestDice, "max-request-dice", "the most dice one roll request may roll in all (MaxRequestDice)")
	in(&l.MaxTokensListed, "max-tokens-listed", "the most tokens one Authorization header may hold (MaxTokensListed)")
	fs.Float64Var(&l.Rate, "rate", l.Rate, "requests a second one token or client address may make on average (Rate)")
	in(&l.Burst, "burst", "requests one token or client address may make at once (Burst)")
	in(&l.MaxClientStreams, "max-client-streams", "the most live streams one client address may hold (MaxClientStreams)")
	in(&l.MaxEncounterStreams, "max-encounter-streams", "the most live streams on one encounter (MaxEncounterStreams)")
	fs.Float64Var(&l.CreateRate, "create-rate", l.CreateRate, "encounters one client address may create or import an hour (CreateRate)")
	in(&l.MaxClientWork, "max-client-work", "expensive requests one client address may have in flight (MaxClientWork)")
	in(&l.MaxSubscribers, "max-streams", "the most live streams the server holds (MaxSubscribers)")
	in(&l.SubscriberBuffer, "stream-buffer", "changes a live stream may fall behind before it is dropped (SubscriberBuffer)")
	in(&l.MaxCached, "max-cached", "the most encounters kept in memory (MaxCached)")
	in(&l.MaxCachedEvents, "max-cached-events", "the most events the encounters in memory may hold (MaxCachedEvents)")
	in(&l.MaxEncounters, "max-encounters", "the most encounters the database may hold (MaxEncounters)")
	i64(&l.MaxStoredBytes, "max-stored-bytes", "the most `bytes` the database may hold (MaxStoredBytes)")
	in(&l.Workers, "workers", "distributions computed at once (Workers)")
	in(&l.WorkQueue, "work-queue", "distributions that may wait for a worker (WorkQueue)")
	fs.DurationVar(&l.WorkWait, "work-wait", l.WorkWait, "how long a distribution may wait for a worker (WorkWait)")
	in(&l.MaxSimFights, "max-sim-fights", "the most fights one simulation may play (MaxSimFights)")
	fs.DurationVar(&l.MaxSimTime, "max-sim-time", l.MaxSimTime, "the longest one simulation may play (MaxSimTime)")
}
