/*
 * Circular doubly linked lists with a head node, the shape Linux uses
 * everywhere: embed a struct list_head in the object, get back to the
 * object with list_entry (container_of). Pure.
 */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <kernel/types.h>

/* A link in a list, or the list itself when it is the head. */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Inserts n right after head (stack order). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

/* Inserts n right before head, that is at the tail (queue order). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

/* Unlinks e and leaves it pointing at itself, so list_empty(e) is true after. */
static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}
#define list_del list_del_init

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/*
 * Entries of head, counting no further than max: a list read without its
 * lock (a hang report from an NMI) may be mid-change, and must not loop.
 */
static inline unsigned int list_count_nodes_max(const struct list_head *head, unsigned int max)
{
	unsigned int n = 0;

	for (const struct list_head *pos = head->next; pos != head && n < max; pos = pos->next)
		n++;
	return n;
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add_tail(e, head);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_first_entry_or_null(head, type, member) \
	(list_empty(head) ? NULL : list_first_entry(head, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)
#define list_for_each_entry(pos, head, member)				\
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member);	\
	     &(pos)->member != (head);					\
	     (pos) = list_next_entry(pos, member))
#define list_last_entry(head, type, member) list_entry((head)->prev, type, member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_for_each_entry_reverse(pos, head, member)			\
	for ((pos) = list_last_entry(head, __typeof__(*(pos)), member);	\
	     &(pos)->member != (head);					\
	     (pos) = list_prev_entry(pos, member))
/* Iteration that survives removing pos from the list. */
#define list_for_each_entry_safe(pos, n, head, member)			\
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member),	\
	     (n) = list_next_entry(pos, member);				\
	     &(pos)->member != (head);					\
	     (pos) = (n), (n) = list_next_entry(n, member))

#endif
