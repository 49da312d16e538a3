/*
 * awk's exp, log, sin, cos and atan2 on its fixed-point numbers (awk.h),
 * without floating point: each works in units of 10^-18 (F), reduces its
 * argument to a small range where a Taylor series converges in a few
 * dozen terms, and rounds the result to awk's 10^-9. Results are right to
 * the last of the nine places over the ranges doubles serve well; exp
 * saturates past about 1.7e29, as every awk number does.
 */
#include <kernel/cmds/awk/awk.h>

typedef __int128 s128;
typedef unsigned __int128 u128;

#define F		((s128)1000000000000000000)	/* the working unit: 10^-18 */
#define UNIT_TO_F	((s128)1000000000)		/* awk units (10^-9) to F */
/* Constants in F, rounded. */
#define LN2		((s128)693147180559945309)
#define PI		((s128)3141592653589793238)
#define SQRT3		((s128)1732050807568877294)

/* a * b / F, both at most a few F in size, rounded to nearest. */
static s128 fmul(s128 a, s128 b)
{
	s128 p = a * b;

	return (p + (p < 0 ? -F / 2 : F / 2)) / F;
}

/* An F value to awk units, rounded to nearest, saturating. */
static awk_num from_f(s128 v)
{
	return (awk_num)((v + (v < 0 ? -UNIT_TO_F / 2 : UNIT_TO_F / 2)) / UNIT_TO_F);
}

/* exp(r) for |r| <= ln2 / 2, in F. */
static s128 exp_small(s128 r)
{
	s128 sum = F, term = F;

	for (int n = 1; term; n++) {
		term = fmul(term, r) / n;
		sum += term;
	}
	return sum;
}

awk_num awk_num_exp(awk_num x)
{
	/* x = k ln2 + r: exp(x) = 2^k exp(r). Past +-67 the result leaves awk's range. */
	s128 xf, r;
	u128 e;
	int k;

	if (x > 67 * AWK_ONE)
		return AWK_NUM_MAX;
	if (x < -67 * AWK_ONE)
		return 0;
	xf = (s128)x * UNIT_TO_F;
	k = (int)((xf + (xf < 0 ? -LN2 / 2 : LN2 / 2)) / LN2);
	r = xf - k * LN2;
	e = (u128)exp_small(r);
	if (k < 0)
		return from_f((s128)(e >> -k));
	/* e < 2^61: shift what fits, the rest after the division. */
	if (k <= 66)
		return from_f((s128)(e << k));
	e = (u128)from_f((s128)(e << 66));
	return e > (u128)AWK_NUM_MAX >> (k - 66) ? AWK_NUM_MAX : (awk_num)(e << (k - 66));
}

/* log(m) for m in [1, 2), in F: 2 atanh(s) with s = (m - 1) / (m + 1) < 1/3. */
static s128 log_small(s128 m)
{
	s128 s = (m - F) * F / (m + F), s2 = fmul(s, s), pow = s, sum = 0;

	for (int n = 1; pow; n += 2) {
		sum += pow / n;
		pow = fmul(pow, s2);
	}
	return 2 * sum;
}

/* x > 0; 0 for anything else (the caller reports that). */
awk_num awk_num_log(awk_num x)
{
	u128 u = (u128)x;
	int k = 0;
	s128 m;

	if (x <= 0)
		return 0;
	/* x = m 2^k with m in [1, 2): u / 10^9 = m 2^k (u >= 1, so k >= -30). */
	if (u >= (u128)AWK_ONE) {
		while (u >> k >= (u128)2 * AWK_ONE)
			k++;
	} else {
		while (u << -k < (u128)AWK_ONE)
			k--;
	}
	if (k >= 0)
		m = u < ((u128)1 << 97) ? (s128)((u * (u128)UNIT_TO_F) >> k)
					: (s128)(u >> k) * UNIT_TO_F;
	else
		m = (s128)((u * (u128)UNIT_TO_F) << -k);
	return from_f(k * LN2 + log_small(m));
}

/* sin(r) (odd) or cos(r) for |r| <= pi, in F. */
static s128 sin_cos_small(s128 r, bool odd)
{
	s128 r2 = fmul(r, r), term = odd ? r : F, sum = 0;

	for (int n = odd ? 1 : 0; term; n += 2) {
		sum += term;
		term = -fmul(term, r2) / ((n + 1) * (n + 2));
	}
	return sum;
}

/* x modulo 2 pi, in F, in [-pi, pi). */
static s128 reduce_2pi(awk_num x)
{
	u128 u = x < 0 ? (u128)0 - (u128)x : (u128)x;
	s128 r;

	/* Beyond 1.7e20 the units times 10^9 do not fit: reduce in units first. */
	if (u > ((u128)1 << 126) / (u128)UNIT_TO_F)
		u %= (u128)(2 * PI / UNIT_TO_F);
	r = (s128)(u * (u128)UNIT_TO_F % (u128)(2 * PI));
	if (x < 0)
		r = -r;
	if (r >= PI)
		r -= 2 * PI;
	else if (r < -PI)
		r += 2 * PI;
	return r;
}

awk_num awk_num_sin(awk_num x)
{
	return from_f(sin_cos_small(reduce_2pi(x), true));
}

awk_num awk_num_cos(awk_num x)
{
	return from_f(sin_cos_small(reduce_2pi(x), false));
}

/* atan(t) for t in [0, 1], in F: past 2 - sqrt(3), atan(t) = pi/6 + atan((sqrt3 t - 1) / (sqrt3 + t)). */
static s128 atan_unit(s128 t)
{
	s128 base = 0, t2, pow, sum = 0;

	if (t > 2 * F - SQRT3) {
		t = (fmul(SQRT3, t) - F) * F / (SQRT3 + t);
		base = PI / 6;
	}
	t2 = fmul(t, t);
	pow = t;
	for (int n = 1; pow; n += 2) {
		sum += (n & 2 ? -pow : pow) / n;
		pow = fmul(pow, t2);
	}
	return base + sum;
}

awk_num awk_num_atan2(awk_num y, awk_num x)
{
	u128 a = y < 0 ? (u128)0 - (u128)y : (u128)y, b = x < 0 ? (u128)0 - (u128)x : (u128)x;
	s128 angle;

	if (!a && !b)
		return 0;
	/* a / b in F needs a * F to fit: scale both down (their ratio is what counts). */
	while (a >= (u128)1 << 67 || b >= (u128)1 << 67) {
		a >>= 1;
		b >>= 1;
	}
	if (a <= b)
		angle = atan_unit((s128)(a * (u128)F / b));
	else
		angle = PI / 2 - atan_unit((s128)(b * (u128)F / a));
	if (x < 0)
		angle = PI - angle;
	return from_f(y < 0 ? -angle : angle);
}
