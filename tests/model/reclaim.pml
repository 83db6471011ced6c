/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/model/reclaim.pml - a Promela model of core/reclaim.c's batch
 * protocol (rculist_free_rcu(), rculist_rcu_barrier(), fork()), checked
 * with spin by `make check-model`.
 *
 * Processes:
 *  - O, the owner: one thread that queues NB blocks with
 *    rculist_free_rcu() (enqueue(): a push onto its open batch, then a
 *    hand-off when the batch holds BATCH blocks or nothing of it is in
 *    flight), then goes idle for good (it neither exits nor frees again);
 *  - W, liburcu's call_rcu worker: runs the slots' callbacks
 *    (slot_done(), and last_done() with its probe and sweep) and the
 *    barrier's marker, one at a time in queue order; a callback runs
 *    after its grace period, which the model takes as ended when the
 *    worker dequeues it;
 *  - and, by MODE (spin -DMODE=n; make check-model checks each): 0,
 *    nothing more (the owner stays idle: its blocks must be freed all
 *    the same); 1, B, a rculist_rcu_barrier() in another thread; 2, F,
 *    a fork() in another thread, whose child runs a barrier (the
 *    parent's owner and worker are then frozen: they did not follow).
 * The owner's state has SLOTS batch slots and the sweep slot.  Each step
 * of the C code that is one atomic operation (a load, a store, a
 * compare-and-swap, an exchange) is one step here, all sequentially
 * consistent (the code uses SEQ_CST where two sides each store, then
 * load the other's; the rest is ordered by release/acquire pairs on the
 * same words).
 *
 * Properties:
 *  - a block is freed once, and only after a grace period that began
 *    after it was queued (its slot's callback ran, or the barrier's own
 *    synchronize_rcu() followed its taking);
 *  - rculist_rcu_barrier() returns only when every block queued before
 *    it was called is freed; in a fork()'s child, the barrier frees
 *    every block the parent had queued at the fork;
 *  - a sweep ends: no more probe rounds than the owner's hand-offs and
 *    the slots' callbacks account for;
 *  - when nothing can move any more (spin's timeout: the owner idle,
 *    the worker waiting for work), every block queued is freed, with no
 *    barrier: an idle thread's open batch is not left behind.
 *
 * Switches (spin -D, or make check-model-reclaim WEAKEN=...), each a bug
 * the properties must catch (make check-model-selftest):
 *   WEAKEN_HAND_FREE      a hand-off frees the open batch at once;
 *   WEAKEN_CLAIM_QUEUED   claim_done() takes a slot still waiting for its
 *                         grace period;
 *   WEAKEN_WINDOW         a hand-off frees the DONE slots before it opens
 *                         its window (the barrier does not wait for it);
 *   WEAKEN_BARRIER_WAIT   the barrier runs the flavour's barrier without
 *                         first waiting for hand-offs in progress;
 *   WEAKEN_SWEEPING       a sweep does not say it is sweeping;
 *   WEAKEN_NO_PROBE       the last callback of a state sends no probe
 *                         round while blocks wait there (an idle
 *                         owner's open batch is never sent);
 *   WEAKEN_NO_SWEEP       the probe's callback never sweeps (it sends
 *                         probe after probe: the bound on them fails);
 *   WEAKEN_INFLIGHT       enqueue() loads inflight before its push (the
 *                         last callback and the push miss each other);
 *   WEAKEN_FORK_GATE      fork() does not wait for the call_rcu gate to
 *                         empty (a hand-off is split by the fork);
 *   WEAKEN_SPILL_DONE     a slot's callback frees a spilled batch after
 *                         it marks the slot DONE (the owner claims it too).
 *
 * Not modelled: callbacks queued with rculist_call_rcu() (they ride in
 * the same slots: slot_done() runs them before it marks the slot DONE),
 * the orphan list (blocks of a thread with no state), the counters and
 * the limit, several owners (each state is its own; the barrier treats
 * them one after another), and thread exit (a hand-off, retried).
 */

#ifndef MODE
#define MODE	0
#endif
/* Blocks the owner queues: two beside a barrier (three: 19 million states). */
#if MODE == 1
#define NB	2
#else
#define NB	3
#endif
#define BATCH	2	/* a full open batch */
/*
 * One slot (the code has 16): with one, the barrier mode finds an idle
 * owner's open batch left behind (the only slot CLAIMED by the barrier
 * when the last callback looks for DONE slots, then no slot free for the
 * owner's hand-off and nothing in flight).  So the liveness property is
 * asserted there with no barrier only; the code keeps more slots than
 * threads that claim at once (the owner, the sweeper and the barriers).
 * SLOTS=2 checks it with a barrier too (about 27 million states: too
 * long for make check).
 */
#ifndef SLOTS
#define SLOTS	1
#endif
#define SWEEP	SLOTS	/* the sweep slot */
#define NONE	255
#define MARK	9	/* the flavour barrier's own callback */

/* enum slot_state */
#define S_FREE	  0
#define S_FILLING 1
#define S_QUEUED  2
#define S_ORPHAN  3
#define S_DONE	  4
#define S_CLAIMED 5

#define BIT(b)	(1 << (b))
#if SLOTS == 1
#define HAS_DONE (st[0] == S_DONE)
#else
#define HAS_DONE (st[0] == S_DONE || st[1] == S_DONE)
#endif

/* The owner's state. */
byte open;		/* blocks in the open batch (bit mask) */
bit stolen;		/* open is STOLEN */
byte count;		/* the owner's count of open */
byte owner_seq;		/* odd while the owner hands off */
bit sweeping;
byte inflight;		/* slots on call_rcu */
byte st[SLOTS + 1];
byte blocks[SLOTS + 1];
byte seen_seq;		/* the sweep slot's n: owner_seq when a probe left */
byte probes;		/* probe rounds sent */

/* liburcu: the callback queue, and the worker's progress. */
chan cq = [SLOTS + 2] of { byte };
bit mark_done;
bit cb_running;		/* the worker is inside a callback */
byte ingate;		/* threads inside core/fork.c's call_rcu gate */
bit forked;		/* the fork happened: parent's threads frozen */

/* What the properties look at. */
byte queued;		/* blocks pushed */
byte freed;
byte gp_after;		/* blocks a grace period has passed since queued */
byte mode;		/* 0 idle, 1 barrier, 2 fork */
bit barrier_done;

inline free_blocks(m)
{
	atomic {
		/* a block is freed once */
		assert((freed & m) == 0);
		/* and only after a grace period that began after its queueing */
		assert((gp_after & m) == m);
		freed = freed | m
	}
}

/* claim_done(): free the DONE slots, each by one thread. */
inline claim_done(k, got)
{
	k = 0;
	do
	:: k < SLOTS ->
		atomic {
			if
#ifdef WEAKEN_CLAIM_QUEUED
			:: st[k] == S_DONE || st[k] == S_QUEUED ->
#else
			:: st[k] == S_DONE ->
#endif
				st[k] = S_CLAIMED; got = 1
			:: else -> got = 0
			fi
		}
		if
		:: got ->
			free_blocks(blocks[k]);
			d_step { blocks[k] = 0; st[k] = S_FREE; k++ }
		:: else -> k++
		fi
	:: else -> break
	od;
	k = 0;
	got = 0
}

/* hand_off(): free the DONE slots, send the open batch through a free slot. */
inline hand_off(k, got, use, list)
{
	ingate++;
#ifdef WEAKEN_WINDOW
	claim_done(k, got);
	owner_seq++;
#else
	owner_seq++;
	claim_done(k, got);
#endif
	use = NONE;
	k = 0;
	do
	:: k < SLOTS && use == NONE ->
		d_step {
			if
			:: st[k] == S_FREE -> st[k] = S_FILLING; use = k
			:: else
			fi;
			k++
		}
	:: else -> break
	od;
	if
	:: use != NONE ->
		d_step { list = open; open = 0; stolen = 0; count = 0 }
		if
		:: list == 0 -> st[use] = S_FREE
		:: else ->
#ifdef WEAKEN_HAND_FREE
			free_blocks(list);
			st[use] = S_FREE
#else
			d_step { blocks[use] = list; st[use] = S_QUEUED }
			inflight++;
			cq ! use
#endif
		fi
	:: else
	fi;
	owner_seq++;
	ingate--;
	use = 0;
	list = 0
}

proctype Owner() provided (!forked)
{
	byte b = 0, k, got, use, list, inf;
	do
	:: b < NB ->
#ifdef WEAKEN_INFLIGHT
		inf = inflight;
#endif
		d_step {
			if
			:: stolen -> open = BIT(b); stolen = 0; count = 1
			:: else -> open = open | BIT(b); count++
			fi;
			queued = queued | BIT(b)
		}
#ifndef WEAKEN_INFLIGHT
		inf = inflight;
#endif
		if
		:: count >= BATCH || inf == 0 -> hand_off(k, got, use, list)
		:: else
		fi;
		d_step { b++; inf = 0 }
	:: else -> break
	od
}

/*
 * A probe goes again only after a slot's callback or a change of
 * owner_seq (two a hand-off).  Counted with no barrier only (the count
 * multiplies the states).
 */
inline probe_sent()
{
#if MODE == 0
	/* the sweep ends: probe rounds are bounded */
	assert(probes <= 3 * NB + 1);
	probes++
#else
	skip
#endif
}

/*
 * last_done(): nothing of the state in flight.  After a probe that saw
 * no hand-off, sweep: free the DONE slots, send the open batch through
 * the sweep slot; otherwise send a probe if blocks wait.
 */
inline last_done(probe, seen, k, got, list, send)
{
	ingate++;
	if
	:: inflight != 0 || st[SWEEP] != S_FREE
	:: else ->
#ifndef WEAKEN_SWEEPING
		sweeping = 1;
#endif
		if
#ifdef WEAKEN_NO_SWEEP
		:: false ->
#else
		:: probe && owner_seq == seen ->
#endif
			claim_done(k, got);
			atomic { list = open; open = 0; stolen = 1 }
			if
			:: list != 0 -> send = 1
			:: else
			fi
		:: else ->
			if
#ifdef WEAKEN_NO_PROBE
			:: false ->
#else
			:: open != 0 || HAS_DONE ->
#endif
				probe_sent();
				seen_seq = owner_seq;
				send = 1
			:: else
			fi
		fi;
		if
		:: send ->
			d_step { blocks[SWEEP] = list; st[SWEEP] = S_ORPHAN }
			inflight++;
			cq ! SWEEP
		:: else
		fi;
		sweeping = 0
	fi;
	ingate--;
	list = 0;
	send = 0
}

/*
 * slot_done(): a slot's grace period is over.  A spilled batch (SPILL
 * blocks or more in the code) is freed first, while the slot is still
 * QUEUED and so still the callback's; the model lets any batch be one.
 */
inline slot_done(s, probe, seen, k, got, list, send, last)
{
	probe = 0;
#ifndef WEAKEN_SPILL_DONE
	if
	:: st[s] == S_QUEUED && blocks[s] != 0 ->
		free_blocks(blocks[s]);
		blocks[s] = 0
	:: true
	fi;
#endif
	atomic {
		if
		:: st[s] == S_QUEUED -> st[s] = S_DONE; got = 1
		:: else -> got = 0
		fi
	}
#ifdef WEAKEN_SPILL_DONE
	/* the spilled batch freed after the slot is DONE: the owner may claim it */
	if
	:: got && blocks[s] != 0 ->
		free_blocks(blocks[s]);
		blocks[s] = 0
	:: else
	fi;
#endif
	if
	:: !got ->
		if
		:: blocks[s] != 0 ->
			free_blocks(blocks[s]);
			d_step { blocks[s] = 0; st[s] = S_FREE }
		:: else -> d_step { probe = 1; seen = seen_seq; st[s] = S_FREE }
		fi
	:: else
	fi;
	atomic { inflight--; last = (inflight == 0) }
	if
	:: last -> last_done(probe, seen, k, got, list, send)
	:: else
	fi;
	probe = 0;
	seen = 0;
	last = 0
}

inline worker_loop()
{
	byte s, seen, k, got, list;
	bit probe, send, last;

	do
	:: atomic {
		cq ? s;
		cb_running = 1;
		/* its grace period has ended */
		if
		:: s != MARK -> gp_after = gp_after | blocks[s]
		:: else
		fi
	   }
		if
		:: s == MARK -> mark_done = 1
		:: else -> slot_done(s, probe, seen, k, got, list, send, last)
		fi;
		d_step { cb_running = 0; s = 0 }
	od
}

proctype Worker() provided (!forked)
{
	worker_loop()
}

/* The child's call_rcu thread: liburcu gives it the parent's queue. */
proctype ChildWorker() provided (forked)
{
	worker_loop()
}

/* wait_quiet(): no hand-off, sweep or free in progress. */
inline wait_quiet(seq)
{
	seq = owner_seq;
	if
	:: seq & 1 -> owner_seq != seq
	:: else
	fi;
	seq = 0;
	sweeping == 0
}

/* rculist_rcu_barrier() in a thread that is not the owner. */
inline barrier(before, taken, seq, k, got)
{
	atomic { taken = open; open = 0; stolen = 1 }
	if
	:: taken != 0 ->
		gp_after = gp_after | taken; /* rculist_synchronize_rcu() */
		free_blocks(taken)
	:: else
	fi;
#ifndef WEAKEN_BARRIER_WAIT
	wait_quiet(seq);
#endif
	/* the flavour's barrier: its callback runs after those before it */
	cq ! MARK;
	mark_done == 1;
	mark_done = 0;
	claim_done(k, got);
	wait_quiet(seq);
	/* every block queued before the barrier is freed when it returns */
	assert((freed & before) == before);
	barrier_done = 1
}

proctype Barrier() provided (!forked)
{
	byte before, taken, seq, k, got;

	before = queued;
	barrier(before, taken, seq, k, got)
}

/* fork() in a third thread; then the child's barrier, in that thread. */
proctype Fork()
{
	byte before, taken, seq, k, got;

	atomic {
#ifndef WEAKEN_FORK_GATE
		ingate == 0 &&
#endif
		!cb_running ->
		forked = 1;
		before = queued;
		/* rculist__reclaim_after_fork() in the child */
		if
		:: owner_seq & 1 -> owner_seq++
		:: else
		fi;
		sweeping = 0;
		inflight = 0;
		k = 0;
		do
		:: k <= SLOTS ->
			if
			:: st[k] == S_FILLING || st[k] == S_CLAIMED -> st[k] = S_FREE
			:: st[k] == S_QUEUED || st[k] == S_ORPHAN -> inflight++
			:: else
			fi;
			k++
		:: else -> break
		od
	}
	barrier(before, taken, seq, k, got)
}

init
{
	atomic {
		run Owner();
		run Worker();
#if MODE == 1
		mode = 1;
		run Barrier()
#elif MODE == 2
		mode = 2;
		run Fork();
		run ChildWorker()
#endif
	}
}

/* Nothing can move: the owner idle, the worker waiting. */
active proctype Quiet()
{
	timeout ->
	/* every block queued is freed in the end, the barrier returned */
	assert((freed == queued || (mode == 1 && SLOTS == 1)) &&
	       (mode == 0 || barrier_done))
}
