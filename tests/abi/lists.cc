// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tests/abi/lists.cc - rculist from C++11/17/20: every iterator (the
 * walks of iterators.h), iterators inside templates and on parenthesised
 * cursors, lists and hlists, a reader thread walking while the updater
 * deletes, rculist_call_rcu() and rculist_free_rcu(), linked with one
 * flavour and run.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "iterators.h"

namespace {

CDS_LIST_HEAD(global_list);
CDS_HLIST_HEAD(global_hlist);

struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct rcu_head rcu;
};

std::atomic<int> freed_by_callback(0);

void free_item(struct rcu_head *head)
{
	struct item *it = reinterpret_cast<struct item *>(
		reinterpret_cast<char *>(head) - offsetof(struct item, rcu));
	it->key = -1; /* poison: a reader that still sees it would notice */
	std::free(it);
	freed_by_callback++;
}

struct item *new_item(int key)
{
	struct item *it = static_cast<struct item *>(std::malloc(sizeof(*it)));

	if (!it)
		std::abort();
	it->key = key;
	return it;
}

/* A generic walk: the cursor's type depends on the template argument. */
template <class T>
long signature(struct cds_list_head *head)
{
	T *pos;
	long sig = 0;

	cds_list_for_each_entry(pos, head, link)
		sig = sig * 10 + pos->key;
	return sig;
}

template <class T>
long hsignature_rcu(struct cds_hlist_head *head) RCULIST_REQUIRES_RCU
{
	T *pos;
	long sig = 0;

	cds_hlist_for_each_entry_rcu_2(pos, head, hnode)
		sig = sig * 10 + pos->key;
	return sig;
}

/* A reader walking global_list while main() deletes from it. */
std::atomic<bool> stop(false);
std::atomic<long> reader_walks(0), reader_bad(0);

void reader()
{
	rculist_register_thread();
	while (!stop.load()) {
		struct item *it;

		rculist_read_lock();
		cds_list_for_each_entry_rcu(it, &global_list, link)
			if (it->key < 0)
				reader_bad++;
		rculist_read_unlock();
		rculist_quiescent_state();
		reader_walks++;
	}
	rculist_unregister_thread();
}

} // namespace

int main()
{
	const int n = 6;
	struct item *it, *tmp;
	struct cds_hlist_node *hpos;
	int i, freed_directly = 0;

	rculist_register_thread();
	iter_check_all();

	/* before: [g] empty   after: [g] 1 2 3 4 5 6, [hg] 6 5 4 3 2 1 */
	for (i = 1; i <= n; i++) {
		it = new_item(i);
		cds_list_add_tail_rcu(&it->link, &global_list);
		cds_hlist_add_head_rcu(&it->hnode, &global_hlist);
	}
	iter_expect(signature<struct item>(&global_list), 123456,
		    "template walk of the list");
	rculist_read_lock();
	iter_expect(hsignature_rcu<struct item>(&global_hlist), 654321,
		    "template walk of the hlist");
	rculist_read_unlock();
	i = 0;
	cds_list_for_each_entry((it), &global_list, link)
		i++;
	iter_expect(i, n, "parenthesised cursor");
	/* No reader yet: main, the only updater, walks given that condition. */
	i = 0;
	cds_hlist_for_each_entry_rcu(it, hpos, &global_hlist, hnode, !stop.load())
		i++;
	iter_expect(i, n, "hlist with a node cursor");

	/* Delete everything while a reader walks: odd keys via call_rcu,
	 * even keys via rculist_free_rcu. */
	rculist_thread_offline();
	std::thread t(reader);
	while (reader_walks.load() < 100)
		std::this_thread::yield();
	cds_list_for_each_entry_safe(it, tmp, &global_list, link) {
		cds_list_del_rcu(&it->link);
		cds_hlist_del_rcu(&it->hnode);
		if (it->key % 2) {
			rculist_call_rcu(&it->rcu, free_item);
		} else {
			rculist_free_rcu(it, rcu);
			freed_directly++;
		}
	}
	rculist_synchronize_rcu();
	stop = true;
	t.join();
	rculist_rcu_barrier();
	rculist_thread_online();

	iter_expect(cds_list_empty(&global_list), 1, "list emptied");
	iter_expect(cds_hlist_empty(&global_hlist), 1, "hlist emptied");
	iter_expect(freed_by_callback.load(), n / 2, "call_rcu callbacks run");
	iter_expect(freed_directly, n / 2, "rculist_free_rcu calls");
	iter_expect(reader_bad.load(), 0, "reader saw freed items");
	iter_expect(std::string(rculist_flavor_name()).empty(), 0,
		    "flavour name");

	rculist_unregister_thread();
	std::printf("C++%ld: every iterator, lists, hlists, call_rcu under %s "
		    "(%ld reader walks): %s\n",
		    (long)__cplusplus / 100 % 100, rculist_flavor_name(),
		    reader_walks.load(), iter_failures ? "FAILED" : "ok");
	return iter_failures != 0;
}
