/*
 * The kmalloc family (kernel/slab.h). Each entry point is out of line and
 * passes its own return address down, so the kmem events name the real
 * call site, not a helper in this file.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/mm/slab.h>

void *kmalloc(size_t size, gfp_t flags)
{
	return __do_kmalloc(size, flags, _RET_IP_);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return __do_kmalloc(size, flags | __GFP_ZERO, _RET_IP_);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return __do_kmalloc(n * size, flags | __GFP_ZERO, _RET_IP_);
}

void kfree(const void *p)
{
	__do_kfree(p, _RET_IP_);
}

size_t ksize(const void *p)
{
	return __ksize(p, _RET_IP_);
}

void *krealloc(const void *p, size_t size, gfp_t flags)
{
	size_t have;
	void *n;

	if (ZERO_OR_NULL_PTR(p))
		return __do_kmalloc(size, flags, _RET_IP_);
	if (!size) {
		__do_kfree(p, _RET_IP_);
		return ZERO_SIZE_PTR;
	}
	have = __ksize(p, _RET_IP_);
	if (!have)
		return NULL;		/* not ours: reported by __ksize */
	if (size <= have)
		return (void *)p;
	n = __do_kmalloc(size, flags, _RET_IP_);
	if (n) {
		memcpy(n, p, have);
		__do_kfree(p, _RET_IP_);
	}
	return n;
}

char *kstrndup(const char *s, size_t max, gfp_t flags)
{
	size_t len;
	char *d;

	if (!s)
		return NULL;
	len = strnlen(s, max);
	d = __do_kmalloc(len + 1, flags, _RET_IP_);
	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

char *kstrdup(const char *s, gfp_t flags)
{
	size_t len;
	char *d;

	if (!s)
		return NULL;
	len = strlen(s);
	d = __do_kmalloc(len + 1, flags, _RET_IP_);
	if (d)
		memcpy(d, s, len + 1);
	return d;
}
