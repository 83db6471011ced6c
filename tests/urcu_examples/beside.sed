# SPDX-License-Identifier: LGPL-2.1-or-later
# A liburcu example ported to rculist's lists, liburcu's runtime kept:
# each of liburcu's list headers becomes <rculist.h> (after the flavour
# header, which stays, with every urcu_<flavour>_* call).
s%^#[[:space:]]*include[[:space:]]*[<"]urcu/\(list\|hlist\|rculist\|rcuhlist\|cds\)\.h[>"]%#include <rculist.h>%
