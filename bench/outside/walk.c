/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/outside/walk.c - bench/outside/walk.h against rculist's installed
 * headers: compiled once, linked with each -lrculist-<flavour>.
 */
#include <rculist.h>

#define LOCK()	     rculist_read_lock()
#define UNLOCK()     rculist_read_unlock()
#define QS()	     rculist_quiescent_state()
#define REGISTER()   rculist_register_thread()
#define UNREGISTER() rculist_unregister_thread()

#include "walk.h"
