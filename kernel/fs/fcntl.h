/*
 * The file ABI numbers, Linux's values: open flags, file types and
 * permission bits, lseek whences, directory entry types. Pure. The host
 * build takes them from libc, which has the same values on x86_64 Linux,
 * so a test can mix these with <fcntl.h> without redefinitions.
 */
#ifndef KERNEL_FS_FCNTL_H
#define KERNEL_FS_FCNTL_H

#ifdef SPOOR_HOST
#include <fcntl.h>
#include <stdio.h>
#include <dirent.h>
#include <sys/stat.h>
#else
#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_EXCL		00000200
#define O_NOCTTY	00000400
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_NONBLOCK	00004000
#define O_DIRECTORY	00200000
#define O_NOFOLLOW	00400000
#define O_CLOEXEC	02000000

#define S_IFMT		00170000
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFBLK		0060000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

#define DT_UNKNOWN	0
#define DT_FIFO		1
#define DT_CHR		2
#define DT_DIR		4
#define DT_REG		8
#define DT_LNK		10
#endif

#define S_IALLUGO	07777

/* Longest name in a directory and longest path, Linux's limits. */
#ifndef NAME_MAX
#define NAME_MAX	255
#endif
#ifndef PATH_MAX
#define PATH_MAX	4096
#endif

#endif
