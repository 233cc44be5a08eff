package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"fray"
	"fray/dice"
)

// Distributions go through a pool of workers.
//
// An exact distribution may take about a second of one core (up to
// dice.MaxDistWork), and computed on each request's own goroutine a flood
// of them takes every core: everyone's answers slow down. So the
// distributions whose work passes cheapDistWork are computed by at most
// Limits.Workers requests at once, Limits.WorkQueue more may wait for a
// worker, at most Limits.WorkWait, and one client address may have at
// most Limits.MaxClientWork of them in flight. Past those the request is
// refused (503 EBUSY, or 429 ERATELIMITED for MaxClientWork), with
// Retry-After, before any work.
//
// A cheap distribution (every expression a table uses: 4d6kh3, 3d6!,
// 10d10>=8f1, 20d6!) is computed at once on the request's goroutine and
// never waits behind an expensive one. Telling them apart costs little:
// the first attempt is made with a budget of cheapDistWork, and the dice
// package refuses a distribution past its budget by a dry run, before any
// of the arithmetic. Only at the automatic depth of an expression that
// explodes or rerolls may the attempt fit by stopping shallower than the
// whole budget would; that answer (at most cheapDistWork of work) is
// thrown away and the distribution goes to the pool.

// cheapDistWork is the most work (dice.DistOptions.MaxWork) a
// distribution may need to be computed at once, without the pool: about
// 2 ms on a small machine, 1/512 of dice.MaxDistWork. It is a threshold,
// not a budget: a distribution past it waits for a worker, and is refused
// only by the pool's budgets or by dice.MaxDistWork.
const cheapDistWork = 1 << 22

// autoDepthGoal is the Truncated mass under which dice's automatic depth
// stops (dice.DistOptions.Depth documents it). A cheap attempt at the
// automatic depth that stopped above it may have been cut short by
// cheapDistWork, so it is made again with the whole budget.
const autoDepthGoal = 1e-12

// busyRetry is the Retry-After of a request refused by the pool: about
// the longest one distribution may take.
const busyRetry = time.Second

// workPool bounds the expensive work the server does at once, in all and
// per client address. With Workers zero or less the pool is off and any
// number compute at once (MaxClientWork still counts them); with
// MaxClientWork zero or less a client may have any number in flight;
// with WorkWait zero or less a request waits as long as its client does.
// WorkQueue zero or less is not off but empty: none waits, and a request
// that finds every worker busy is refused at once (a queue without bound
// is what the budget is there to prevent).
type workPool struct {
	workers  chan struct{} // a token per computation running; nil when Workers is off
	admitted chan struct{} // a token per request computing or waiting
	limits   Limits

	mu      sync.Mutex
	clients map[string]int // expensive requests in flight, by client address

	// trace, when set (by tests), is told of each step of a request
	// through the pool: "wait" as it starts to wait for a worker, "start"
	// as it has one and starts computing, "quit" as it stops waiting
	// (WorkWait, or its client went away).
	trace func(step string)
}

func newWorkPool(l Limits) *workPool {
	p := &workPool{limits: l, clients: map[string]int{}}
	if l.Workers > 0 {
		p.workers = make(chan struct{}, l.Workers)
		p.admitted = make(chan struct{}, l.Workers+max(l.WorkQueue, 0))
	}
	return p
}

// work returns the server's pool of workers for expensive requests:
// distributions and simulations.
func (s *Server) work() *workPool { return s.pool }

// do runs f for client once a worker is free, and refuses with a
// *fray.Error, without running f, when the pool's budgets do not allow
// it or ctx ends first. f itself is not interrupted: a distribution
// cannot be stopped halfway, and takes at most about a second.
func (p *workPool) do(ctx context.Context, client string, f func()) error {
	release, err := p.acquire(ctx, client)
	if err != nil {
		return err
	}
	defer release()
	p.step("start")
	f()
	return nil
}

// acquire takes a place in the pool for client: a worker, after waiting
// for one if need be. release gives it back.
func (p *workPool) acquire(ctx context.Context, client string) (release func(), err error) {
	if err := p.enter(client); err != nil {
		return nil, err
	}
	if p.workers == nil {
		return func() { p.leave(client) }, nil
	}
	select {
	case p.admitted <- struct{}{}:
	default:
		p.leave(client)
		return nil, &fray.Error{Code: EBUSY, Err: &retryError{busyRetry}, Message: fmt.Sprintf(
			"The server is busy: %d expensive requests (distributions, simulations) are being worked on and %d wait for a worker, the most it takes (Workers, WorkQueue). Try again in a second.",
			p.limits.Workers, max(p.limits.WorkQueue, 0))}
	}
	release = func() {
		<-p.workers
		<-p.admitted
		p.leave(client)
	}
	select {
	case p.workers <- struct{}{}:
		return release, nil
	default:
	}
	p.step("wait")
	var timeout <-chan time.Time
	if p.limits.WorkWait > 0 {
		t := time.NewTimer(p.limits.WorkWait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case p.workers <- struct{}{}:
		return release, nil
	case <-timeout:
		err = &fray.Error{Code: EBUSY, Err: &retryError{busyRetry}, Message: fmt.Sprintf(
			"The server is busy: no worker came free within %s (WorkWait). Try again in a second.", p.limits.WorkWait)}
	case <-ctx.Done():
		err = &fray.Error{Code: EBUSY, Message: "The request ended while it waited for a worker.", Err: ctx.Err()}
	}
	<-p.admitted
	p.leave(client)
	p.step("quit")
	return nil, err
}

// enter counts one more expensive request in flight for client, or
// refuses it past MaxClientWork.
func (p *workPool) enter(client string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.limits.MaxClientWork; n > 0 && p.clients[client] >= n {
		return &fray.Error{Code: ERATELIMITED, Err: &retryError{busyRetry}, Message: fmt.Sprintf(
			"This client already has %d expensive requests in flight, the most allowed (MaxClientWork); wait for one to finish.", n)}
	}
	p.clients[client]++
	return nil
}

// leave counts one expensive request of client fewer; a client with none
// is forgotten.
func (p *workPool) leave(client string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[client]--; p.clients[client] <= 0 {
		delete(p.clients, client)
	}
}

func (p *workPool) step(s string) {
	if p.trace != nil {
		p.trace(s)
	}
}

// distribution computes e's distribution at depth (0 for automatic) for
// the request r: at once when it needs at most cheapDistWork, else in
// the pool, counted against r's client address. Its errors are users':
// the dice package's refusals, or the pool's.
func (s *Server) distribution(r *http.Request, e *dice.Expr, depth int) (*dice.Dist, error) {
	d, err := e.Dist(dice.DistOptions{Depth: depth, MaxWork: cheapDistWork})
	if !expensive(d, err, depth) {
		if err != nil {
			return nil, diceError(err)
		}
		return d, nil
	}
	var derr error
	if err := s.work().do(r.Context(), s.clientAddr(r), func() {
		d, derr = e.Dist(dice.DistOptions{Depth: depth})
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, diceError(derr)
	}
	return d, nil
}

// expensive reports whether the answer (d, err) to a distribution
// attempted within cheapDistWork must be computed again with the whole
// budget: the attempt was refused for its work, or, at the automatic
// depth, it may have chosen a shallower depth than the whole budget
// allows. Any other refusal is final: the budget does not change it.
func expensive(d *dice.Dist, err error, depth int) bool {
	if err != nil {
		var de *dice.Error
		return errors.As(err, &de) && de.Limit == dice.LimitDistWork
	}
	return depth == 0 && d.Depth > 0 && d.Depth < dice.MaxExplodeDepth && d.Truncated >= autoDepthGoal
}
