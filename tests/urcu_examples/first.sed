# SPDX-License-Identifier: LGPL-2.1-or-later
# The other order rculist(7) allows: <rculist.h> added before everything,
# nothing else changed; liburcu's list headers, after it, are no-ops, and
# its flavour header and calls stay.
1i #include <rculist.h>
