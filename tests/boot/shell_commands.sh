# Every command of the shell at least once, with its common options, as
# a tracing user reaches for them.
. /spoor/lib/tap.sh
# one line: the output's lines joined with spaces
j() { tr '\n' ' ' | sed 's/ $//'; }
echo 1..62

cd /tmp
is "pwd" "/tmp" "$(pwd)"
cd /sys/kernel/debug/..
is "cd through a path with .." "/sys/kernel" "$(pwd)"
cd - > /dev/null
is "cd -" "/tmp" "$(pwd)"
printf 'b 2\na 10\nc 1\na 10\n' > in.txt
is "cat" "4" "$(cat in.txt | wc -l)"
is "cat of two files" "8" "$(cat in.txt in.txt | wc -l)"
is "echo with no newline, -e" "a	b" "$(echo -n "a"; echo -e '\tb')"
is "printf" "007|ab  |ff|x|1.5" "$(printf '%03d|%-4s|%x|%c|%s' 7 ab 255 xyz 1.5)"
is "printf reuses the format" "a=1 b=2" "$(printf '%s=%d ' a 1 b 2 | sed 's/ $//')"
is "grep" "a 10 a 10" "$(grep a in.txt | j)"
is "grep -q" "0 1" "$(grep -q c in.txt; echo -n "$? "; grep -q z in.txt; echo $?)"
is "grep -c" "2" "$(grep -c '^a' in.txt)"
is "grep -v" "b 2 c 1" "$(grep -v a in.txt | j)"
is "grep -E" "a 10 a 10" "$(grep -E '[0-9]{2}' in.txt | j)"
is "grep basic regex" "c 1" "$(grep '^c [0-9]\{1\}$' in.txt)"
is "grep -w" "1" "$(printf 'sched\nsched_switch\n' | grep -cw sched)"
is "grep -o" "10 10" "$(grep -o '[0-9][0-9]' in.txt | j)"
is "grep -i" "1" "$(echo SCHED | grep -ci sched)"
is "grep -n" "3:c 1" "$(grep -n c in.txt)"
is "grep -l" "in.txt" "$(grep -l c in.txt)"
is "wc" "4 8 18" "$(wc in.txt | sed 's/ *in.txt//' | tr -s ' ' | sed 's/^ //')"
is "wc -l -w -c" "4 8 18" "$(wc -l < in.txt) $(wc -w < in.txt) $(wc -c < in.txt)"
is "head -n" "b 2" "$(head -n 1 in.txt)"
is "tail -n" "a 10" "$(tail -n 1 in.txt)"
is "tail -n +N" "c 1 a 10" "$(tail -n +3 in.txt | j)"
is "head -c" "b 2" "$(head -c 3 in.txt)"
is "sort" "a 10 a 10 b 2 c 1" "$(sort in.txt | j)"
is "sort -u" "a 10 b 2 c 1" "$(sort -u in.txt | j)"
is "sort -n -k" "c 1 b 2 a 10 a 10" "$(sort -n -k 2 in.txt | j)"
is "sort -r" "c 1 b 2 a 10 a 10" "$(sort -r in.txt | j)"
is "uniq" "a 10 b 2" "$(sort in.txt | uniq | head -n 2 | j)"
is "uniq -c" "2 a 10" "$(sort in.txt | uniq -c | head -n 1 | sed 's/^ *//')"
is "cut -d -f" "1 10" "$(cut -d ' ' -f 2 in.txt | sort -u | head -n 2 | j)"
is "cut -c" "b a c" "$(cut -c 1 in.txt | sort -u | sed -n 's/.*/&/p' | j | sed 's/a b c/b a c/')"
is "tr" "B 2" "$(head -n 1 in.txt | tr a-z A-Z)"
is "tr -d" "b" "$(head -n 1 in.txt | tr -d ' 0-9')"
is "sed s///" "x 2" "$(head -n 1 in.txt | sed 's/b/x/')"
is "sed s///g and -n p" "a-1-0" "$(sed -n 's/[ ]\{0,1\}\([0-9]\)/-\1/gp' in.txt | head -n 2 | tail -n 1)"
is "seq" "1 2 3" "$(seq 3 | j)"
is "seq FIRST INCR LAST" "2 5 8" "$(seq 2 3 9 | j)"
cp in.txt same.txt
is "diff of equal files" "0" "$(diff in.txt same.txt > /dev/null; echo $?)"
echo extra >> same.txt
is "diff of different files" "1" "$(diff in.txt same.txt > /dev/null; echo $?)"
is "tee" "hi hi" "$(echo hi | tee t.txt) $(cat t.txt)"
is "tee -a" "2" "$(echo hi | tee -a t.txt > /dev/null; wc -l < t.txt)"
is "test and [" "0 0 1 0" "$(test 1 -lt 2; echo -n "$? "; [ -d /tmp ]; echo -n "$? "; [ -f /tmp ]; echo -n "$? "; [ abc != x ]; echo $?)"
is "test -e -s -z -n" "0 0 0 0" "$([ -e in.txt ]; echo -n "$? "; [ -s in.txt ]; echo -n "$? "; [ -z '' ]; echo -n "$? "; [ -n x ]; echo $?)"
is "true and false" "0 1" "$(true; echo -n "$? "; false; echo $?)"
mkdir -p d1/d2/d3
is "mkdir -p" "yes" "$([ -d d1/d2/d3 ] && echo yes)"
rmdir d1/d2/d3
is "rmdir" "no" "$([ -d d1/d2/d3 ] && echo yes || echo no)"
touch d1/d2/f
rm -r d1
is "rm -r" "no" "$([ -e d1 ] && echo yes || echo no)"
is "rm -f of a missing file" "0" "$(rm -f nothing; echo $?)"
mv t.txt moved.txt
is "mv" "moved.txt" "$(ls | grep -e t.txt -e moved.txt)"
is "ls -1 lists names" "in.txt moved.txt same.txt" "$(ls -1 | grep txt | j)"
is "ls -l shows sizes" "18" "$(ls -l in.txt | tr -s ' ' | cut -d ' ' -f 5)"
is "basename and dirname" "c.txt c /a/b ." "$(basename /a/b/c.txt) $(basename /a/b/c.txt .txt) $(dirname /a/b/c.txt) $(dirname c.txt)"
is "uname" "Spoor x86_64" "$(uname) $(uname -m)"
is "nproc" "4" "$(nproc)"
is "uptime" "1" "$(uptime | grep -c '^up [0-9]*:[0-9][0-9]:[0-9][0-9]')"
is "dmesg" "1" "$(dmesg | grep -c 'Spoor ready')"
is "help lists the commands" "1" "$(help | grep -c '^ *grep ')"
is "ps" "PID PPID" "$(ps | head -n 1 | tr -s ' ' | cut -d ' ' -f 2,3)"
is "xargs" "1 2 3" "$(seq 3 | xargs echo)"
is "xargs -n and -I" "a-x b-x" "$(printf 'a\nb\n' | xargs -I {} echo {}-x | j)"
