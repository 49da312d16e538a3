/*
 * Shell variables, `local` frames, positional parameters, functions and
 * argument vectors.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>

static struct sh_var *find_var(struct sh *sh, const char *name)
{
	struct sh_name *n = sh_table_find(&sh->var_table, name);

	return n ? container_of(n, struct sh_var, hn) : NULL;
}

const char *sh_getvar(struct sh *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name);

	return v ? v->value : NULL;
}

/* A new variable with no value, listed first; NULL when out of memory. */
static struct sh_var *new_var(struct sh *sh, const char *name)
{
	struct sh_var *v = kzalloc(sizeof(*v), GFP_KERNEL);

	if (!v || !(v->hn.name = kstrdup(name, GFP_KERNEL)) || sh_table_add(&sh->var_table, &v->hn)) {
		if (v)
			kfree(v->hn.name);
		kfree(v);
		return NULL;
	}
	v->next = sh->vars;
	if (v->next)
		v->next->pprev = &v->next;
	v->pprev = &sh->vars;
	sh->vars = v;
	return v;
}

static void free_var(struct sh *sh, struct sh_var *v)
{
	sh_table_del(&sh->var_table, &v->hn);
	*v->pprev = v->next;
	if (v->next)
		v->next->pprev = v->pprev;
	kfree(v->hn.name);
	kfree(v->value);
	kfree(v);
}

/* Store value in v, reusing its buffer when the new text fits (loop counters). */
static int set_value(struct sh_var *v, const char *value)
{
	size_t n = strlen(value);
	char *copy;

	if (v->value && strlen(v->value) >= n) {
		memmove(v->value, value, n + 1);	/* value may be v->value itself */
		return 0;
	}
	/* Room to grow: a counter's next value is often one digit longer. */
	copy = kmalloc(n + 8, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, value, n + 1);
	kfree(v->value);
	v->value = copy;
	return 0;
}

int sh_setvar(struct sh *sh, const char *name, const char *value, bool export)
{
	struct sh_var *v = find_var(sh, name);

	if (v && v->readonly && value) {
		sh_error(sh, "%s: is read only", name);
		return -EROFS;
	}
	if (!v && !(v = new_var(sh, name)))
		return -ENOMEM;
	if (value && set_value(v, value)) {
		if (!v->value)
			free_var(sh, v);
		return -ENOMEM;
	}
	v->exported |= export;
	return 0;
}

int sh_unsetvar(struct sh *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name);

	if (!v)
		return 0;
	if (v->readonly) {
		sh_error(sh, "%s: is read only", name);
		return -EROFS;
	}
	free_var(sh, v);
	return 0;
}

/* Save name's current value so that the function's return restores it. */
int sh_local(struct sh *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name);
	struct sh_local *l;

	for (l = sh->locals; l; l = l->next)
		if (!strcmp(l->name, name))
			return 0;	/* already local in this call */
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l || !(l->name = kstrdup(name, GFP_KERNEL)) ||
	    (v && v->value && !(l->value = kstrdup(v->value, GFP_KERNEL)))) {
		if (l)
			kfree(l->name);
		kfree(l);
		return -ENOMEM;
	}
	l->exported = v && v->exported;
	l->next = sh->locals;
	sh->locals = l;
	return 0;
}

void sh_pop_locals(struct sh *sh, struct sh_local *until)
{
	while (sh->locals != until) {
		struct sh_local *l = sh->locals;

		sh->locals = l->next;
		sh_unsetvar(sh, l->name);
		if (l->value)
			sh_setvar(sh, l->name, l->value, l->exported);
		kfree(l->name);
		kfree(l->value);
		kfree(l);
	}
}

void sh_free_vars(struct sh *sh)
{
	while (sh->vars)
		free_var(sh, sh->vars);
	sh_table_free(&sh->var_table);
}

void sh_copy_vars(struct sh *dst, const struct sh *src)
{
	const struct sh_var *last = src->vars;

	/* Oldest first, so that the copy lists them in the same order. */
	while (last && last->next)
		last = last->next;
	for (const struct sh_var *v = last; v; v = v->pprev == &src->vars ? NULL :
			container_of(v->pprev, struct sh_var, next)) {
		struct sh_var *c;

		if (!v->value)
			continue;
		c = new_var(dst, v->hn.name);
		if (!c || set_value(c, v->value))
			break;
		c->exported = v->exported;
		c->readonly = v->readonly;
	}
}

void sh_free_params(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		kfree(argv[i]);
	kfree(argv);
}

int sh_set_params(struct sh *sh, int argc, char **argv)
{
	char **copy = kcalloc((size_t)argc + 1, sizeof(*copy), GFP_KERNEL);

	if (!copy)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		if (!(copy[i] = kstrdup(argv[i], GFP_KERNEL))) {
			sh_free_params(i, copy);
			return -ENOMEM;
		}
	}
	sh_free_params(sh->argc, sh->argv);
	sh->argc = argc;
	sh->argv = copy;
	return 0;
}

struct sh_func *sh_find_func(struct sh *sh, const char *name)
{
	struct sh_name *n = sh_table_find(&sh->func_table, name);

	return n ? container_of(n, struct sh_func, hn) : NULL;
}

int sh_define_func(struct sh *sh, const char *name, struct sh_node *body, struct sh_arena *a)
{
	struct sh_func *f = sh_find_func(sh, name);

	if (!f) {
		f = kzalloc(sizeof(*f), GFP_KERNEL);
		if (!f || !(f->hn.name = kstrdup(name, GFP_KERNEL)) ||
		    sh_table_add(&sh->func_table, &f->hn)) {
			if (f)
				kfree(f->hn.name);
			kfree(f);
			return -ENOMEM;
		}
		f->next = sh->funcs;
		sh->funcs = f;
	} else {
		sh_arena_put(f->arena);
	}
	sh_arena_get(a);
	f->arena = a;
	f->body = body;
	return 0;
}

void sh_unset_func(struct sh *sh, const char *name)
{
	struct sh_func *f = sh_find_func(sh, name);

	if (!f)
		return;
	for (struct sh_func **pp = &sh->funcs; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	sh_table_del(&sh->func_table, &f->hn);
	sh_arena_put(f->arena);
	kfree(f->hn.name);
	kfree(f);
}

void sh_free_funcs(struct sh *sh)
{
	while (sh->funcs)
		sh_unset_func(sh, sh->funcs->hn.name);
	sh_table_free(&sh->func_table);
}

void sh_copy_funcs(struct sh *dst, const struct sh *src)
{
	for (const struct sh_func *f = src->funcs; f; f = f->next)
		if (sh_define_func(dst, f->hn.name, f->body, f->arena))
			break;
}

void sh_argv_push(struct sh_argv *a, char *s)
{
	if (!s) {
		a->oom = true;
		return;
	}
	if (a->argc + 2 > a->cap) {
		int cap = a->cap ? a->cap * 2 : 8;
		char **v = krealloc(a->argv, sizeof(*v) * (size_t)cap, GFP_KERNEL);

		if (!v) {
			kfree(s);
			a->oom = true;
			return;
		}
		a->argv = v;
		a->cap = cap;
	}
	a->argv[a->argc++] = s;
	a->argv[a->argc] = NULL;
}

void sh_argv_free(struct sh_argv *a)
{
	for (int i = 0; i < a->argc; i++)
		kfree(a->argv[i]);
	kfree(a->argv);
	memset(a, 0, sizeof(*a));
}
