# The file system and resource calls a ring-3 shell makes (user/fscalls):
# symlink(at), readlink(at), rename(at/at2), link(at), fchdir, truncate,
# ftruncate, chmod, fchmod(at), fsync, fdatasync, utimensat, getrusage,
# times, time, with good and bad arguments (EFAULT pointers, EBADF, ENOENT,
# EEXIST, ENOTDIR, ELOOP, EXDEV...). Every line below is what the same
# binary printed on Linux 6.12 (the rig, --kernel ue --smp 1, /tmp on its
# rootfs): one check per line, in order.
. /spoor/lib/tap.sh
echo 1..210

cat > /tmp/fscalls.want <<'EOF'
symlink: 0
symlink: reads back target
symlink existing: EEXIST
symlink bad target: EFAULT
symlink bad path: EFAULT
symlink empty target: ENOENT
symlink no parent: ENOENT
symlink parent a file: ENOTDIR
symlink trailing slash: ENOENT
symlink trailing slash existing: EEXIST
mkdir trailing slash: 0
symlinkat: 0
symlinkat: reads back target2
symlinkat bad dirfd: EBADF
symlinkat file dirfd: ENOTDIR
symlinkat absolute ignores dirfd: 0
symlink loop1: 0
symlink loop2: 0
stat of a loop: ELOOP
readlink of a loop: loop2
readlink through a loop: ELOOP
readlinkat: 6
readlinkat: text target
readlinkat short buffer: 3 tar
readlinkat not a link: EINVAL
readlinkat size 0: EINVAL
readlinkat size -1: EINVAL
readlinkat bad buffer: EFAULT
readlinkat kernel buffer: EFAULT
readlinkat bad path: EFAULT
readlinkat bad dirfd: EBADF
readlinkat file dirfd: ENOTDIR
readlinkat missing: ENOENT
readlinkat empty path: ENOENT
readlinkat empty path bad dirfd: EBADF
readlinkat empty path file dirfd: ENOENT
readlink empty path: ENOENT
renameat: 0
renameat: old name gone: yes
renameat: new name there: yes
renameat missing: ENOENT
renameat bad old dirfd: EBADF
renameat bad new dirfd: EBADF
renameat bad old path: EFAULT
renameat bad new path: EFAULT
renameat under a file: ENOTDIR
renameat dir onto non-empty dir: ENOTEMPTY
renameat dir onto file: ENOTDIR
renameat file onto dir: EISDIR
renameat dir into itself: EINVAL
renameat dir onto empty dir: 0
renameat2 noreplace existing: EEXIST
renameat2 noreplace: 0
renameat2 noreplace: moved: yes
renameat2 flags 0: 0
renameat2 unknown flag: EINVAL
renameat2 noreplace|exchange: EINVAL
renameat2 unknown flag bad path: EINVAL
rename a file with a trailing slash: ENOTDIR
rename a file to a trailing slash: ENOTDIR
rename onto itself: 0
renameat2 noreplace onto itself: EEXIST
fchdir: 0
fchdir: getcwd is the dir: yes
fchdir: relative paths follow: yes
fchdir bad fd: EBADF
fchdir file: ENOTDIR
fchdir pipe: ENOTDIR
fstatat empty path of AT_FDCWD: 0
fstatat empty path of AT_FDCWD: the working directory: yes
fstatat empty path of a file: 0
fstatat empty path, bad fd: EBADF
chdir back to /: 0
link: 0
link: same inode: yes
link: nlink 2 2
link existing: EEXIST
link missing: ENOENT
link a directory: EPERM
link bad old path: EFAULT
link bad new path: EFAULT
link under a file: ENOTDIR
link into a missing dir: ENOENT
link to a trailing slash: ENOENT
link to /proc: EXDEV
link a symlink: 0
link a symlink: the link itself: yes
linkat follow: 0
linkat follow: the target: yes
linkat follow: nlink 3
linkat bad flags: EINVAL
linkat bad dirfd: EBADF
linkat follow loop: ELOOP
unlink a name: 0
unlink a name: nlink 2, data kept
linkat empty path: 0
linkat empty path without the flag: ENOENT
all names gone: nlink 0
linkat of an unlinked file: ENOENT
truncate grow: 0
truncate grow: size 8192
truncate shrink: 0
truncate shrink: size 10, reads 0123456789
truncate negative: EINVAL
truncate dir: EISDIR
truncate missing: ENOENT
truncate bad path: EFAULT
truncate under a file: ENOTDIR
truncate loop: ELOOP
truncate negative bad path: EINVAL
ftruncate: 0
ftruncate: size 6, regrown bytes zero
ftruncate read-only fd: EINVAL
ftruncate bad fd: EBADF
ftruncate dir: EINVAL
ftruncate negative: EINVAL
ftruncate negative bad fd: EINVAL
ftruncate pipe: EINVAL
fsync pipe: EINVAL
fsync: 0
fdatasync: 0
fsync read-only fd: 0
fsync dir: 0
fsync bad fd: EBADF
fdatasync bad fd: EBADF
fsync /dev/null: EINVAL
ftruncate /dev/null: EINVAL
chmod: 0
chmod: mode 100600
chmod setuid: 0
chmod setuid: mode 104755
chmod type bits ignored: 0
chmod type bits ignored: mode 100644
chmod missing: ENOENT
chmod bad path: EFAULT
chmod loop: ELOOP
chmod through a symlink: 0
chmod through a symlink: target 100640, link 120777
fchmod: 0
fchmod: mode 100444
fchmod bad fd: EBADF
fchmodat: 0
fchmodat: mode 100604
fchmodat bad dirfd: EBADF
fchmodat file dirfd: ENOTDIR
fchmodat bad path: EFAULT
chmod dir: 0
chmod dir: mode 40700
create 0664 under umask 022: mode 100644
utimensat set: 0
utimensat set: atime and mtime as given: yes
utimensat set: ctime now: yes
utimensat omit atime: 0
utimensat omit atime: atime kept: yes
utimensat now: 0
utimensat now: both now: yes
utimensat omit both, missing path: 0
utimensat nsec out of range: EINVAL
utimensat nsec out of range, missing: ENOENT
utimensat bad times: EFAULT
utimensat bad path: EFAULT
utimensat missing: ENOENT
utimensat bad flags: EINVAL
utimensat bad dirfd: EBADF
utimensat loop: ELOOP
utimensat nofollow: 0
utimensat nofollow: the link's times: yes
futimens: 0
futimens: set: yes
futimens with flags: EINVAL
utimensat empty path: 0
utimensat empty path without the flag: ENOENT
futimens bad fd: EBADF
utimensat NULL path, AT_FDCWD: EFAULT
truncate a tracefs file: 0
truncate a /proc file: 0
ftruncate a tracefs file: 0
fsync a tracefs file: EINVAL
fchmod a tracefs file: 0
fchmod a tracefs file: mode 100640
chmod a /proc/PID file: EPERM
rename into /proc: EXDEV
rename out of /proc: EXDEV
rename within /proc: ENOENT
link into /proc: ENOENT
symlink in /proc: ENOENT
utimensat a /proc file: 0
getrusage self: 0
getrusage self: 60 ms burnt show: yes
getrusage self: page faults counted: yes
getrusage thread: 0
getrusage thread: time shows: yes
getrusage self: an exited thread's 60 ms show: yes
process CPU clock: an exited thread's 60 ms show: yes
getrusage children: 0
getrusage children: a waited child's 60 ms show: yes
getrusage bad who: EINVAL
getrusage bad pointer: EFAULT
times: return value counts 1/100 s: yes
times: own CPU time: yes
times: children's CPU time: yes
times NULL: yes
times bad pointer: EFAULT
time: the realtime clock's seconds, stored too: yes
time NULL: yes
time bad pointer: EFAULT
fscalls: done
exit 0
EOF
T=/sys/kernel/tracing
echo 1 > $T/events/syscalls/sys_enter_renameat2/enable
echo 1 > $T/events/syscalls/sys_exit_renameat2/enable
fscalls /tmp/fscalls > /tmp/fscalls.got
echo "exit $?" >> /tmp/fscalls.got
echo 0 > $T/events/syscalls/enable
i=0
while IFS= read -r want; do
	i=$((i + 1))
	is "${want%%: *}" "$want" "$(sed -n "${i}p" /tmp/fscalls.got)"
done < /tmp/fscalls.want

# The new calls have their syscalls:* events: fscalls makes 7 renameat2
# calls, 2 of them answered EEXIST (-17).
is "sys_enter_renameat2 records" 7 "$(grep -c 'sys_renameat2(olddfd: ' $T/trace)"
is "sys_exit_renameat2 records of EEXIST" 2 "$(grep -c 'sys_renameat2 -> 0xffffffffffffffef$' $T/trace)"
