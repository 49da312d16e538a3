/*
 * Event triggers: commands written to events/<sys>/<event>/trigger that
 * run when the event fires, as Linux has them:
 *
 *   echo 'traceoff:5 if prev_pid == 0' > events/sched/sched_switch/trigger
 *   echo '!traceoff' >> events/sched/sched_switch/trigger
 *
 * Each command (traceon, traceoff, snapshot, stacktrace, enable_event,
 * disable_event here; hist, enable_hist, disable_hist from the hist code)
 * is a struct event_command in a registration table, as Linux's
 * event_command: the trigger file finds the command by name and hands it
 * the rest of the line. Pure.
 */
#ifndef TRACE_TRACE_TRIGGER_H
#define TRACE_TRACE_TRIGGER_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <trace/trace_event.h>

struct event_command;
struct seq_file;

/* What one kind of trigger does when it fires, and how it prints. */
struct event_trigger_ops {
	/* Fire for a record of size bytes (common fields first). Any context, never sleeps. */
	void (*trigger)(struct event_trigger_data *data, void *rec, unsigned int size);
	/*
	 * One line of the trigger file, without the newline, cut to fit
	 * (scnprintf's contract: returns what it wrote, at most size - 1).
	 */
	int (*print)(char *buf, size_t size, const struct event_trigger_data *data);
	/* Free private_data (after a grace period: no probe can be running it). */
	void (*free)(struct event_trigger_data *data);
};

/* One trigger attached to one event file. */
struct event_trigger_data {
	const struct event_trigger_ops *ops;
	struct event_command *cmd;
	long count;			/* fires left; -1 unlimited */
	struct event_filter *filter;	/* the `if` part; NULL: always */
	void *private_data;		/* the command's (enable_event: the target file) */
	/*
	 * May run on the record while it is still reserved in the ring: it
	 * writes no record of its own (the ring refuses a second writer in the
	 * same context) and needs none committed (a snapshot, a traceoff, a
	 * stack trace after the record do). A hist trigger without actions.
	 */
	bool in_place;
	struct event_trigger_data *next;	/* in file->triggers */
};

/*
 * A trigger command. parse() gets the file, the text after "name" (with
 * its leading ':' if any, filter included, e.g. ":5 if pid > 1") and
 * whether the line started with '!'; it attaches (or removes) a trigger
 * with event_trigger_register()/event_trigger_unregister(), returning 0
 * or -errno after logging an error_log entry where Linux does.
 */
struct event_command {
	const char *name;
	int (*parse)(struct event_command *cmd, struct trace_event_file *file,
		     const char *param, bool remove);
	/*
	 * Opening the trigger file with O_TRUNC: drop this command's triggers
	 * on file. Commands without one keep theirs, as Linux's do.
	 */
	void (*unreg_all)(struct event_command *cmd, struct trace_event_file *file);
	/* Extra files in events/<sys>/<event>/ (hist, hist_debug); may be NULL. */
	int (*create_files)(struct trace_event_file *file, struct dentry *dir);
	/* The event file is going (a runtime event removed): drop its state; may be NULL. */
	void (*remove_files)(struct trace_event_file *file);
	struct list_head list;
};

/* Add a command to the table: -EEXIST for a name already there. Boot time. */
int register_event_command(struct event_command *cmd);
struct event_command *find_event_command(const char *name);
/* The built-in commands (traceon ... disable_event), in Linux's order. */
int register_trigger_cmds(void);
/* Call every command's create_files for a new event directory. */
int event_trigger_create_files(struct trace_event_file *file, struct dentry *dir);

/*
 * The common grammar of ":count if filter" after a command's own
 * arguments: *count (-1 when absent) and *filter (compiled against file's
 * event, NULL when absent). Errors are logged to the file's instance.
 */
int event_trigger_parse_count_filter(struct trace_event_file *file, const char *cmd_text,
				     const char *rest, long *count, struct event_filter **filter);

/*
 * Attach data to file (soft-enabling the event so it fires): -EEXIST if
 * a trigger of the same kind (the same ops, e.g. traceon and traceoff)
 * that same() accepts is there. Detach the trigger of the same command
 * that same() accepts: -ENOENT if none. Caller holds trace_types_lock.
 */
int event_trigger_register(struct trace_event_file *file, struct event_trigger_data *data,
			   bool (*same)(const struct event_trigger_data *a,
					const struct event_trigger_data *b));
int event_trigger_unregister(struct trace_event_file *file, struct event_trigger_data *data,
			     bool (*same)(const struct event_trigger_data *a,
					  const struct event_trigger_data *b));
/*
 * O_TRUNC on the trigger file: every command's unreg_all. In Linux only
 * hist and enable_hist/disable_hist have one, so `echo X > trigger`
 * replaces hist triggers (unless one's variables are referenced) and
 * keeps traceon, snapshot, enable_event, ... (a second one is EEXIST).
 */
void event_trigger_unreg_all(struct trace_event_file *file);
/* An unreg_all that drops every trigger of cmd on file. */
void event_trigger_unreg_cmd(struct event_command *cmd, struct trace_event_file *file);
/* The event is going away: the commands' unreg_all, then every trigger left. */
void event_trigger_remove_all(struct trace_event_file *file);

/* Take one firing from a counted trigger: false when its count is used up. */
bool event_trigger_take(struct event_trigger_data *data);

/* The trigger file's content. */
void event_triggers_show(struct seq_file *m, struct trace_event_file *file);

#endif
