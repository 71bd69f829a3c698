# SPDX-License-Identifier: BSD-3-Clause
# stats.awk - the awk functions the tables of perf/*.sh share.  common.sh
# reads it into STATS_AWK; a script puts it before its own program:
#     awk -F'\t' "$STATS_AWK"'
#     ...the program...' FILE
#
# sortv(a, n)   sorts a[1..n] ascending (numbers; n is small)
# median(a, n)  sorts a[1..n] and returns the median (n > 0)
# sig(x)        x with about three significant digits
# num(x)        true when x is a figure, not "" (none) or "FAIL"
function sortv(a, n,    i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function median(a, n) { sortv(a, n); return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
function sig(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x) }
function num(x) { return x != "" && x != "FAIL" }
