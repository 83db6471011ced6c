# SPDX-License-Identifier: LGPL-2.1-or-later
# A liburcu example ported whole, as rculist-migration(7) says: the
# flavour header (<urcu/urcu-<flavour>.h>, or <urcu.h> and the like) and
# the list headers become one <rculist.h>; each runtime call, prefixed
# (urcu_memb_read_lock) or not (rcu_read_lock), its rculist_* name.  The
# program then links with -lrculist-<f>, for any flavour f.  A liburcu
# call left unmapped does not compile.
s%^#[[:space:]]*include[[:space:]]*[<"]\(urcu/urcu-[a-z]*\|urcu\|urcu-[a-z]*\)\.h[>"]%#include <rculist.h>%
\%^#[[:space:]]*include[[:space:]]*[<"]urcu/\(list\|hlist\|rculist\|rcuhlist\|cds\)\.h[>"]%d
s/\burcu_\(memb\|qsbr\|bp\|mb\|signal\)_barrier\b/rculist_rcu_barrier/g
s/\burcu_\(memb\|qsbr\|bp\|mb\|signal\)_\(read_lock\|read_unlock\|read_ongoing\|register_thread\|unregister_thread\|quiescent_state\|thread_offline\|thread_online\|synchronize_rcu\|call_rcu\)\b/rculist_\2/g
s/\brcu_\(read_lock\|read_unlock\|read_ongoing\|register_thread\|unregister_thread\|quiescent_state\|thread_offline\|thread_online\)\b/rculist_\1/g
s/\b\(synchronize_rcu\|call_rcu\|rcu_barrier\)\b/rculist_\1/g
