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
	for (struct sh_var *v = sh->vars; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

const char *sh_getvar(struct sh *sh, const char *name)
{
	struct sh_var *v = find_var(sh, name);

	return v ? v->value : NULL;
}

int sh_setvar(struct sh *sh, const char *name, const char *value, bool export)
{
	struct sh_var *v = find_var(sh, name);
	char *copy = NULL;

	if (v && v->readonly && value) {
		sh_error(sh, "%s: is read only", name);
		return -EROFS;
	}
	if (value && !(copy = kstrdup(value, GFP_KERNEL)))
		return -ENOMEM;
	if (!v) {
		v = kzalloc(sizeof(*v), GFP_KERNEL);
		if (!v || !(v->name = kstrdup(name, GFP_KERNEL))) {
			kfree(v);
			kfree(copy);
			return -ENOMEM;
		}
		v->next = sh->vars;
		sh->vars = v;
	}
	if (value) {
		kfree(v->value);
		v->value = copy;
	}
	v->exported |= export;
	return 0;
}

int sh_unsetvar(struct sh *sh, const char *name)
{
	for (struct sh_var **pp = &sh->vars; *pp; pp = &(*pp)->next) {
		struct sh_var *v = *pp;

		if (!strcmp(v->name, name)) {
			if (v->readonly) {
				sh_error(sh, "%s: is read only", name);
				return -EROFS;
			}
			*pp = v->next;
			kfree(v->name);
			kfree(v->value);
			kfree(v);
			return 0;
		}
	}
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

void sh_free_vars(struct sh_var *v)
{
	while (v) {
		struct sh_var *next = v->next;

		kfree(v->name);
		kfree(v->value);
		kfree(v);
		v = next;
	}
}

struct sh_var *sh_copy_vars(const struct sh_var *v, bool exported_only)
{
	struct sh_var *head = NULL, **tail = &head;

	for (; v; v = v->next) {
		struct sh_var *c;

		if ((exported_only && !v->exported) || !v->value)
			continue;
		c = kzalloc(sizeof(*c), GFP_KERNEL);
		if (!c || !(c->name = kstrdup(v->name, GFP_KERNEL)) ||
		    !(c->value = kstrdup(v->value, GFP_KERNEL))) {
			if (c)
				kfree(c->name);
			kfree(c);
			break;	/* out of memory: the copy is partial */
		}
		c->exported = v->exported;
		c->readonly = v->readonly;
		*tail = c;
		tail = &c->next;
	}
	return head;
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
	for (struct sh_func *f = sh->funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

int sh_define_func(struct sh *sh, const char *name, struct sh_node *body, struct sh_arena *a)
{
	struct sh_func *f = sh_find_func(sh, name);

	if (!f) {
		f = kzalloc(sizeof(*f), GFP_KERNEL);
		if (!f || !(f->name = kstrdup(name, GFP_KERNEL))) {
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

void sh_free_funcs(struct sh_func *f)
{
	while (f) {
		struct sh_func *next = f->next;

		sh_arena_put(f->arena);
		kfree(f->name);
		kfree(f);
		f = next;
	}
}

struct sh_func *sh_copy_funcs(const struct sh_func *f)
{
	struct sh_func *head = NULL, **tail = &head;

	for (; f; f = f->next) {
		struct sh_func *c = kzalloc(sizeof(*c), GFP_KERNEL);

		if (!c || !(c->name = kstrdup(f->name, GFP_KERNEL))) {
			kfree(c);
			break;
		}
		sh_arena_get(f->arena);
		c->arena = f->arena;
		c->body = f->body;
		*tail = c;
		tail = &c->next;
	}
	return head;
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
