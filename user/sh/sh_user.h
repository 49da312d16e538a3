/* The ring-3 shell's set-up (sh_os_user.c), called by main before any shell runs. */
#ifndef USER_SH_SH_USER_H
#define USER_SH_SH_USER_H

/* top: an address in main's frame, from which stack_left measures the stack used. */
void sh_user_os_init(char *top);

#endif
