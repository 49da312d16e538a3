# AF_INET stream sockets over loopback (kernel/net/): user/inet_sockets runs
# a server and a client (fork) through socket, bind, listen, connect,
# accept/accept4, read/write, sendto/recvfrom, poll, shutdown and close,
# with Linux's errnos for bad families, addresses, ports, pointers and
# states; every line it prints is compared. A kretprobe on inet_csk_accept
# (Linux's accept path, kprobe/kretprobe_maxactive's target) sees each
# accept call once: the accepted struct sock, or NULL when none was taken.
# Then 800 connections from four processes at once, and the memory back.
# The same binary on Linux 6.12 (the rig, lo up) prints every line alike but
# three: AF_INET6 and SOCK_DGRAM sockets and MSG_PEEK, not there on Spoor.
. /spoor/lib/tap.sh
cat > /tmp/inet.want <<'WANT'
socket AF_INET6: Address family not supported by protocol
socket SOCK_DGRAM: Socket type not supported
socket IPPROTO_UDP: Protocol not supported
socket bad flags: Invalid argument
accept on a pipe: Not a socket
socket: yes
close-on-exec: yes
setsockopt SO_REUSEADDR: 0
setsockopt SO_REUSEADDR short: Invalid argument
bind bad address: Bad address
bind short: Invalid argument
bind 10.0.0.1: Address not available
bind 127.0.0.1:0: 0
ephemeral port: yes
bind again: Invalid argument
getpeername unconnected: Socket not connected
getsockname bad length pointer: Bad address
getsockname bad address: Bad address
getsockname truncated: full length: 16
connect before listen: Connection refused
read unconnected: Socket not connected
write unconnected: Broken pipe
connect 10.0.0.1: Network unreachable
listen: 0
bind a listening port: Address in use
bind INADDR_ANY on it, SO_REUSEADDR: Address in use
accept O_NONBLOCK, nothing queued: Resource temporarily unavailable
poll listener, nothing queued: 0
accept interrupted: Interrupted system call
SIGALRM seen: yes
accept: yes
accepted peer is 127.0.0.1: yes
getpeername = accept's address: yes
peer port ephemeral: yes
accepted socket's port is the listener's: yes
poll connected: writable: 1
poll connected: readable once the client wrote: yes
recvfrom bad buffer: Bad address
recvfrom MSG_PEEK: Invalid argument
recvfrom: 4
server got ping: yes
recvfrom: address length: 0
write bad buffer: Bad address
write: 4
server got 100000 bytes: yes
server sent 100000 bytes: yes
shutdown SHUT_WR: 0
shutdown bad how: Invalid argument
read: EOF from the client: 0
client exit status: 0
recv nonblocking after EOF: 0
connect non-blocking: Operation in progress
connect again: the connection made: 0
connect a third time: Socket is connected
read nonblocking, no data: Resource temporarily unavailable
accept4 SOCK_NONBLOCK (no address asked): yes
read after the peer's close: 0
first write after the peer's close: 1
second write after the peer's close: Broken pipe
one SIGPIPE: yes
send MSG_NOSIGNAL: Broken pipe
still one SIGPIPE: yes
accept bad address: Bad address
read: the dropped connection's EOF: 0
connect after the listener's close: Connection refused
accept calls: 5, connections taken: 3
WANT
lines=$(wc -l < /tmp/inet.want)
echo 1..$((lines + 9))
cd /sys/kernel/tracing

is "inet_csk_accept is traceable" 1 "$(grep -c '^inet_csk_accept$' available_filter_functions)"
echo 'r:myaccept inet_csk_accept ret=$retval' > kprobe_events
result $? "a kretprobe on inet_csk_accept"
echo 1 > events/kprobes/myaccept/enable
inet_sockets > /tmp/inet.got
is "inet_sockets exits 0" 0 $?
echo 0 > events/kprobes/myaccept/enable

i=1
while [ $i -le $lines ]; do
	want=$(sed -n ${i}p /tmp/inet.want)
	is "${want%%: *}" "$want" "$(sed -n ${i}p /tmp/inet.got)"
	i=$((i + 1))
done

is "kretprobe hits: one per accept call" 5 "$(grep -c 'myaccept:' trace)"
is "... NULL where none was taken (EAGAIN, EINTR)" 2 "$(grep -c 'myaccept:.* ret=0x0$' trace)"
is "... a struct sock (kernel address) where one was" 3 \
	"$(grep -c 'myaccept:.* ret=0xffff[0-9a-f]*$' trace)"
is "kprobe_profile counts them" 5 "$(awk '$1 == "myaccept" { print $2 }' kprobe_profile)"
echo > kprobe_events

# Four client processes connecting at once on four CPUs; nothing kept after.
inet_sockets storm 4 50 > /dev/null	# the slab caches grown once
s0=$(meminfo Slab)
is "storm: 4 clients x 200 connections" "storm: 800 connections, 800 echoed, 0 clients failed" \
	"$(inet_sockets storm 4 200)"
s1=$(meminfo Slab)
check "Slab back after them (within 32 kB): $s0 -> $s1 kB" [ $((s1 - s0)) -le 32 ]
