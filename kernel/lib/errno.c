/* errno texts, as strerror(3) prints them, for shell and error_log messages (pure). */
#include <kernel/errno.h>
#include <kernel/types.h>

static const struct {
	int err;
	const char *text;
} errno_texts[] = {
	{ EPERM, "Operation not permitted" },
	{ ENOENT, "No such file or directory" },
	{ ESRCH, "No such process" },
	{ EINTR, "Interrupted system call" },
	{ EIO, "Input/output error" },
	{ ENXIO, "No such device or address" },
	{ E2BIG, "Argument list too long" },
	{ ENOEXEC, "Exec format error" },
	{ EBADF, "Bad file descriptor" },
	{ ECHILD, "No child processes" },
	{ EAGAIN, "Resource temporarily unavailable" },
	{ ENOMEM, "Cannot allocate memory" },
	{ EACCES, "Permission denied" },
	{ EFAULT, "Bad address" },
	{ EBUSY, "Device or resource busy" },
	{ EEXIST, "File exists" },
	{ EXDEV, "Invalid cross-device link" },
	{ ENODEV, "No such device" },
	{ ENOTDIR, "Not a directory" },
	{ EISDIR, "Is a directory" },
	{ EINVAL, "Invalid argument" },
	{ ENFILE, "Too many open files in system" },
	{ EMFILE, "Too many open files" },
	{ ENOTTY, "Inappropriate ioctl for device" },
	{ EFBIG, "File too large" },
	{ ENOSPC, "No space left on device" },
	{ ESPIPE, "Illegal seek" },
	{ EROFS, "Read-only file system" },
	{ EPIPE, "Broken pipe" },
	{ EDOM, "Numerical argument out of domain" },
	{ ERANGE, "Numerical result out of range" },
	{ EDEADLK, "Resource deadlock avoided" },
	{ ENAMETOOLONG, "File name too long" },
	{ ENOSYS, "Function not implemented" },
	{ ENOTEMPTY, "Directory not empty" },
	{ ELOOP, "Too many levels of symbolic links" },
	{ ENODATA, "No data available" },
	{ EOVERFLOW, "Value too large for defined data type" },
	{ EILSEQ, "Invalid or incomplete multibyte or wide character" },
	{ EMSGSIZE, "Message too long" },
	{ ENOTSOCK, "Socket operation on non-socket" },
	{ ENOPROTOOPT, "Protocol not available" },
	{ EPROTONOSUPPORT, "Protocol not supported" },
	{ ESOCKTNOSUPPORT, "Socket type not supported" },
	{ EOPNOTSUPP, "Operation not supported" },
	{ EAFNOSUPPORT, "Address family not supported by protocol" },
	{ EADDRINUSE, "Address already in use" },
	{ EADDRNOTAVAIL, "Cannot assign requested address" },
	{ ENETUNREACH, "Network is unreachable" },
	{ ECONNABORTED, "Software caused connection abort" },
	{ EISCONN, "Transport endpoint is already connected" },
	{ ENOTCONN, "Transport endpoint is not connected" },
	{ ETIMEDOUT, "Connection timed out" },
	{ ECONNREFUSED, "Connection refused" },
	{ EINPROGRESS, "Operation now in progress" },
};

const char *errno_text(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(errno_texts); i++)
		if (errno_texts[i].err == err)
			return errno_texts[i].text;
	return "Unknown error";
}
