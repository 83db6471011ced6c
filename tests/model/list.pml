/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tests/model/list.pml - a Promela model of rculist's circular-list
 * protocol (include/rculist/list_rcu.h), checked with spin by
 * `make check-model`.
 *
 * One updater runs a fixed script on two short lists: the main list
 * [H] <-> A <-> B and a second list [L] <-> F <-> G, and does
 *   cds_list_add_rcu(C, H), cds_list_add_tail_rcu(D, H),
 *   cds_list_del_rcu(A) + grace period + free,
 *   cds_list_replace_rcu(B, E) + grace period + free,
 *   cds_list_splice_init_rcu(L, H),
 * ending with [H] <-> F <-> G <-> C <-> E <-> D and [L] empty.  Two
 * readers meanwhile run read-side critical sections, each walking one of
 * the two lists forwards (cds_list_for_each_entry_rcu) or backwards
 * (cds_list_for_each_entry_reverse_rcu), chosen anew for every section.
 *
 * Memory.  Each node has three words: next, prev and key (the payload,
 * written by the caller before it adds the node).  The updater's stores
 * go through a store buffer from which any entry may reach memory at any
 * time (proctype drain), except that a store never overtakes an earlier
 * one to the same word, and a release store (rculist__publish(),
 * __atomic_store_n(..., __ATOMIC_RELEASE): stlr on aarch64) waits for
 * every earlier store.  A later plain store may overtake a release, as
 * on aarch64.  Plain and relaxed stores are thus seen by the readers in
 * any order.  The updater reads its own stores (store forwarding).
 * Readers load each word from memory, one load at a time, in program
 * order: rculist__deref() is a dependency-ordered load (ldar).  A grace
 * period (rculist_synchronize_rcu()) is a primitive: a full barrier
 * (the store buffer drains), then the updater waits until every reader
 * that was inside a read-side critical section when it began has left
 * it; then the removed node is freed (poisoned: key POISON, links
 * POISON).
 *
 * Properties, asserted by the readers at every node they reach:
 *  - the node is initialised: its key, next and prev were written
 *    before it became reachable (key == MAGIC, links not GARBAGE);
 *  - it has not been reclaimed (key != POISON);
 *  - the walk stays on its list (never reaches another list's head) and
 *    ends at the head it started from within MAXWALK steps.
 * The updater checks at the end that both lists are well formed.
 *
 * Switches (spin -D, or make check-model WEAKEN=...): WEAKEN_ADD,
 * WEAKEN_ADD_PREV, WEAKEN_DEL, WEAKEN_REPLACE, WEAKEN_REPLACE_PREV,
 * WEAKEN_SPLICE, WEAKEN_SPLICE_PREV turn one publication of the code into
 * a plain store (WEAKEN_DEL: the two of cds_list_del_rcu(), relaxed until the
 * model found the reader they let see an uninitialised element);
 * WEAKEN_GP makes the grace periods before the frees return without
 * waiting, WEAKEN_SPLICE_GP the one inside the splice;
 * WEAKEN_DEREF makes the readers' link loads relaxed (the loads through
 * the loaded pointer may then be satisfied before it).  Each must make
 * spin report an assertion violation with a counterexample trail
 * (make check-model-selftest).
 *
 * Not modelled: a lock around each update.  The contract allows a single
 * updater without one, and a lock the readers never take gives them no
 * ordering in C11 (on aarch64 its stlr/ldaxr pair would happen to order
 * one update's stores before the next one's).  The linear lists
 * (hlist_rcu.h, nulls.h) follow the same publication rule with forward
 * readers only; make check-memory-order checks their generated code.
 */

#define NN	9	/* nodes */
#define H	0	/* heads */
#define L	1
#define A	2	/* elements */
#define B	3
#define C	4
#define D	5
#define E	6
#define F	7
#define G	8

#define NEXT(n)	((n) * 3)
#define PREV(n)	((n) * 3 + 1)
#define KEY(n)	((n) * 3 + 2)

#define MAGIC	 7	/* key of an initialised element */
#define HEADKEY	 9	/* key word of a list head */
#define POISON	14	/* key and links of a freed element */
#define GARBAGE	15	/* key and links of memory not yet initialised */
#define MAXWALK	10	/* more steps than nodes: the walk does not end */

#ifdef WEAKEN_ADD
#define REL_ADD 0
#else
#define REL_ADD 1
#endif
#ifdef WEAKEN_ADD_PREV
#define REL_ADD_PREV 0
#else
#define REL_ADD_PREV 1
#endif
#ifdef WEAKEN_DEL
#define REL_DEL 0
#else
#define REL_DEL 1
#endif
/* Grace periods that do not wait: before a free, inside the splice. */
#ifdef WEAKEN_GP
#define GP_FREE_WEAK 1
#else
#define GP_FREE_WEAK 0
#endif
#ifdef WEAKEN_SPLICE_GP
#define GP_SPLICE_WEAK 1
#else
#define GP_SPLICE_WEAK 0
#endif
#ifdef WEAKEN_REPLACE
#define REL_REPLACE 0
#else
#define REL_REPLACE 1
#endif
#ifdef WEAKEN_REPLACE_PREV
#define REL_REPLACE_PREV 0
#else
#define REL_REPLACE_PREV 1
#endif
#ifdef WEAKEN_SPLICE
#define REL_SPLICE 0
#else
#define REL_SPLICE 1
#endif
#ifdef WEAKEN_SPLICE_PREV
#define REL_SPLICE_PREV 0
#else
#define REL_SPLICE_PREV 1
#endif

byte mem[NN * 3];
/* For the counterexample's story: a link value, a key value, a field. */
byte name[16];		/* 'H', 'L', 'A'..'G'; 'X' POISON, '?' GARBAGE */
byte kname[16];		/* 'M' MAGIC, 'h' HEADKEY, 'X' POISON, '?' GARBAGE */
byte fname[3];		/* 'n' next, 'p' prev, 'k' key */
#define WORD(a)	name[(a) / 3], fname[(a) % 3]
#define VALUE(a, v)	((a) % 3 == 2 -> kname[v] : name[v])

/* The updater's store buffer, oldest entry first. */
#define SB 6
byte sb_addr[SB];
byte sb_val[SB];
bit sb_rel[SB];
byte sb_n;

/* Readers: inside a read-side critical section; a bit flipped per section. */
bit rs[2];
bit phase[2];
bit done;

/* A store by the updater: queued, seen by readers once drained. */
inline store(a, v, rel)
{
	atomic {
		sb_n < SB;
		sb_addr[sb_n] = a;
		sb_val[sb_n] = v;
		sb_rel[sb_n] = rel;
		sb_n++;
		if
		:: rel -> printf("U   store %c.%c = %c  release\n", WORD(a), VALUE(a, v))
		:: else -> printf("U   store %c.%c = %c\n", WORD(a), VALUE(a, v))
		fi
	}
}

/* A load by the updater: its own latest store to @a, else memory. */
inline uload(a, r)
{
	d_step {
		r = mem[a];
		i = 0;
		do
		:: i < sb_n ->
			if
			:: sb_addr[i] == a -> r = sb_val[i]
			:: else
			fi;
			i++
		:: else -> break
		od;
		i = 0
	}
}

/* The store buffer drains in any order a weakly ordered CPU allows. */
active proctype drain()
{
	byte i, j;
	bit ok;

end:	do
	:: atomic {
		sb_n > 0 ->
		i = 0;
		do
		:: i + 1 < sb_n -> i++
		:: break
		od;
		ok = 1;
		j = 0;
		do
		:: j < i ->
			if
			:: sb_addr[j] == sb_addr[i] || sb_rel[i] -> ok = 0
			:: else
			fi;
			j++
		:: else -> break
		od;
		if
		:: ok ->
			mem[sb_addr[i]] = sb_val[i];
			printf("M   %c.%c = %c visible to readers\n", WORD(sb_addr[i]),
			       VALUE(sb_addr[i], sb_val[i]));
			j = i;
			do
			:: j + 1 < sb_n ->
				sb_addr[j] = sb_addr[j + 1];
				sb_val[j] = sb_val[j + 1];
				sb_rel[j] = sb_rel[j + 1];
				j++
			:: else -> break
			od;
			sb_n--;
			sb_addr[sb_n] = 0;
			sb_val[sb_n] = 0;
			sb_rel[sb_n] = 0
		:: else
		fi;
		i = 0;
		j = 0;
		ok = 0
	}
	od
}

/*
 * rculist_synchronize_rcu() (core/bind.h, liburcu's synchronize_rcu()):
 * a full barrier, then wait for every reader inside a section now.
 */
inline synchronize_rcu(weak)
{
	sb_n == 0;
	printf("U   grace period begins\n");
	d_step {
		snap[0] = phase[0];
		snap[1] = phase[1];
		busy[0] = rs[0];
		busy[1] = rs[1]
	}
	(weak || busy[0] == 0 || rs[0] == 0 || phase[0] != snap[0]);
	(weak || busy[1] == 0 || rs[1] == 0 || phase[1] != snap[1]);
	printf("U   grace period ends\n");
	d_step {
		busy[0] = 0;
		busy[1] = 0;
		snap[0] = 0;
		snap[1] = 0
	}
}

/* list_rcu.h __cds_list_add_rcu(newp, prev, next). */
inline list_add_rcu(newp, prv, nxt)
{
	store(NEXT(newp), nxt, 0);		/* newp->next = next; */
	store(PREV(newp), prv, 0);		/* newp->prev = prev; */
	store(NEXT(prv), newp, REL_ADD);	/* rculist__publish(prev->next, newp); */
	store(PREV(nxt), newp, REL_ADD_PREV)	/* rculist__publish(next->prev, newp); */
}

/* The caller frees @n after a grace period (debug mode poisons it so). */
inline free_node(n)
{
	store(KEY(n), POISON, 0);
	store(NEXT(n), POISON, 0);
	store(PREV(n), POISON, 0)
}

/* Walk list @h both ways once the buffer is empty: @want nodes each way. */
inline check_list(h, want)
{
	sb_n == 0;
	d_step {
		c = mem[NEXT(h)];
		n = 0;
		do
		:: c == h -> break
		:: else ->
			assert(c < NN && mem[PREV(mem[NEXT(c)])] == c && mem[KEY(c)] == MAGIC);
			c = mem[NEXT(c)];
			n++;
			assert(n <= MAXWALK)
		od;
		assert(n == want);
		c = mem[PREV(h)];
		n = 0;
		do
		:: c == h -> break
		:: else ->
			assert(c < NN && mem[NEXT(mem[PREV(c)])] == c);
			c = mem[PREV(c)];
			n++;
			assert(n <= MAXWALK)
		od;
		assert(n == want);
		c = 0;
		n = 0
	}
}

active proctype updater()
{
	byte i, nx, pv, first, last, c, n;
	bit snap[2], busy[2];

	/* The two lists, and C, D, E as fresh (uninitialised) memory. */
	d_step {
		i = 0;
		do
		:: i < NN * 3 -> mem[i] = GARBAGE; i++
		:: else -> break
		od;
		i = 0;
		mem[NEXT(H)] = A; mem[PREV(H)] = B; mem[KEY(H)] = HEADKEY;
		mem[NEXT(A)] = B; mem[PREV(A)] = H; mem[KEY(A)] = MAGIC;
		mem[NEXT(B)] = H; mem[PREV(B)] = A; mem[KEY(B)] = MAGIC;
		mem[NEXT(L)] = F; mem[PREV(L)] = G; mem[KEY(L)] = HEADKEY;
		mem[NEXT(F)] = G; mem[PREV(F)] = L; mem[KEY(F)] = MAGIC;
		mem[NEXT(G)] = L; mem[PREV(G)] = F; mem[KEY(G)] = MAGIC;
		name[H] = 'H'; name[L] = 'L'; name[A] = 'A'; name[B] = 'B';
		name[C] = 'C'; name[D] = 'D'; name[E] = 'E'; name[F] = 'F';
		name[G] = 'G'; name[POISON] = 'X'; name[GARBAGE] = '?';
		kname[MAGIC] = 'M'; kname[HEADKEY] = 'h'; kname[POISON] = 'X';
		kname[GARBAGE] = '?';
		fname[0] = 'n'; fname[1] = 'p'; fname[2] = 'k'
	}
	run reader(0);
	run reader(1);

	/* The caller initialises C, then cds_list_add_rcu(C, H):
	 * list_rcu.h cds_list_add_rcu() -> __cds_list_add_rcu(C, H, H->next). */
	printf("U   C->key = MAGIC; cds_list_add_rcu(C, H)\n");
	store(KEY(C), MAGIC, 0);		/* the caller's plain store */
	uload(NEXT(H), nx);
	list_add_rcu(C, H, nx);

	/* cds_list_add_tail_rcu(D, H): __cds_list_add_rcu(D, H->prev, H). */
	printf("U   D->key = MAGIC; cds_list_add_tail_rcu(D, H)\n");
	store(KEY(D), MAGIC, 0);
	uload(PREV(H), pv);
	list_add_rcu(D, pv, H);

	/* list_rcu.h cds_list_del_rcu(A).  Release stores: C, just added,
	 * may not be visible yet, and they give readers a new way to it
	 * (B->prev == C). */
	printf("U   cds_list_del_rcu(A)\n");
	uload(PREV(A), pv);			/* prev = elem->prev */
	uload(NEXT(A), nx);			/* next = elem->next */
	store(PREV(nx), pv, REL_DEL);		/* rculist__publish(next->prev, prev); */
	store(NEXT(pv), nx, REL_DEL);		/* rculist__publish(prev->next, next); */
	synchronize_rcu(GP_FREE_WEAK);		/* the caller, before free(A) */
	printf("U   free(A)\n");
	free_node(A);

	/* The caller initialises E, then list_rcu.h cds_list_replace_rcu(B, E). */
	printf("U   E->key = MAGIC; cds_list_replace_rcu(B, E)\n");
	store(KEY(E), MAGIC, 0);
	uload(NEXT(B), nx);			/* old->next */
	store(NEXT(E), nx, 0);			/* newp->next = old->next; */
	uload(PREV(B), pv);			/* old->prev */
	store(PREV(E), pv, 0);			/* newp->prev = old->prev; */
	store(NEXT(pv), E, REL_REPLACE);	/* rculist__publish(newp->prev->next, newp); */
	store(PREV(nx), E, REL_REPLACE_PREV);	/* rculist__publish(newp->next->prev, newp); */
	synchronize_rcu(GP_FREE_WEAK);		/* the caller, before free(B) */
	printf("U   free(B)\n");
	free_node(B);

	/* list_rcu.h cds_list_splice_init_rcu(L, H): not empty, so
	 * __cds_list_splice_init_rcu(L, H, H->next). */
	printf("U   cds_list_splice_init_rcu(L, H)\n");
	uload(NEXT(H), nx);			/* the argument head->next */
	uload(NEXT(L), first);			/* first = list->next */
	assert(first != L);			/* !cds_list_empty(list) */
	uload(PREV(L), last);			/* last = list->prev */
	store(NEXT(L), L, 0);			/* CDS_INIT_LIST_HEAD_RCU(list) */
	store(PREV(L), L, 0);			/* (rculist__store_once) */
	synchronize_rcu(GP_SPLICE_WEAK);	/* rculist_synchronize_rcu(); */
	store(NEXT(last), nx, 0);		/* last->next = next; */
	store(PREV(first), H, 0);		/* first->prev = prev; */
	store(NEXT(H), first, REL_SPLICE);	/* rculist__publish(prev->next, first); */
	store(PREV(nx), last, REL_SPLICE_PREV);	/* rculist__publish(next->prev, last); */

	/* [H] <-> F <-> G <-> C <-> E <-> D, [L] empty. */
	check_list(H, 5);
	check_list(L, 0);
	done = 1
}

/*
 * A reader: read-side critical sections (rculist_read_lock() ..
 * rculist_read_unlock()), each walking list H or L forwards
 * (list_rcu.h cds_list_for_each_entry_rcu: c = deref(h->next), then
 * c = deref(c->next) until c == h) or backwards
 * (cds_list_for_each_entry_reverse_rcu: the same through prev).
 */
proctype reader(bit me)
{
	byte h, c, steps;
	bit fwd;
#ifdef WEAKEN_DEREF
	byte g, gk, gn, gp;
#endif

	do
	:: done -> break
	:: else ->
		if
		:: h = H
		:: h = L
		fi;
		if
		:: fwd = 1
		:: fwd = 0
		fi;
		d_step {
			rs[me] = 1;			/* rculist_read_lock() */
			phase[me] = 1 - phase[me];
			steps = 0;
			c = h;
			printf("R%d  read_lock, walk %c %c\n", me, name[h], (fwd -> 'n' : 'p'))
		};
#ifdef WEAKEN_DEREF
		/*
		 * A relaxed load gives no dependency ordering: the loads
		 * through the pointer it returns may be satisfied before it,
		 * from a node the CPU (or the compiler) guesses: here one of
		 * the nodes added during the run, read now, at the start of
		 * the section, used when the walk reaches it.
		 */
		atomic {
			if
			:: g = NN
			:: g = C
			:: g = D
			:: g = E
			fi;
			if
			:: g < NN ->
				gk = mem[KEY(g)];
				gn = mem[NEXT(g)];
				gp = mem[PREV(g)];
				printf("R%d  loads %c's fields early: key %c\n", me, name[g], kname[gk])
			:: else
			fi
		}
#endif
		do
		:: c == h && steps > 0 -> break
		:: else ->
			d_step {
				/* the node the reader stands on is still alive */
				assert(c == h || mem[KEY(c)] != POISON);
				/* c = rculist__deref(c->next) (->prev backwards) */
				if
				:: fwd -> c = mem[NEXT(c)]
				:: else -> c = mem[PREV(c)]
				fi;
				steps++;
				printf("R%d  -> %c (key %c)\n", me, name[c], kname[mem[KEY(c)]]);
				/* never a link of a reclaimed node */
				assert(c != POISON);
				/* every link leads to a node */
				assert(c < NN);
				if
				:: c != h ->
#ifdef WEAKEN_DEREF
					/* never a node before its fields are written (loaded early) */
					if
					:: c == g ->
						assert(gk != HEADKEY);
						assert(gk != POISON);
						assert(gk == MAGIC && gn != GARBAGE && gp != GARBAGE)
					:: else
					fi;
#endif
					/* the walk stays on its list */
					assert(mem[KEY(c)] != HEADKEY);
					/* never a reclaimed node */
					assert(mem[KEY(c)] != POISON);
					/* never a node before its fields are written */
					assert(mem[KEY(c)] == MAGIC &&
					       mem[NEXT(c)] != GARBAGE &&
					       mem[PREV(c)] != GARBAGE);
					/* the walk ends at its head */
					assert(steps < MAXWALK)
				:: else
				fi
			}
		od;
		atomic {
			rs[me] = 0;			/* rculist_read_unlock() */
			printf("R%d  read_unlock\n", me);
			c = 0;
			h = 0;
			steps = 0;
			fwd = 0;
#ifdef WEAKEN_DEREF
			g = 0; gk = 0; gn = 0; gp = 0;
#endif
			skip
		}
	od
}
