/* The compiled module's argument parsing (engine_type.c, vector.c). */
#ifndef RED7_ARGS_H
#define RED7_ARGS_H

#include <Python.h>
#include <limits.h>

/* `arg` as a C long; an int beyond one reads as LONG_MAX or LONG_MIN, outside any range a
 * caller checks, so that it is refused as any other int out of range; -1 with an error set
 * when `arg` is no int. */
static inline long r7_long(PyObject *arg) {
    int overflow;
    long v = PyLong_AsLongAndOverflow(arg, &overflow);
    return overflow > 0 ? LONG_MAX : overflow < 0 ? LONG_MIN : v;
}

/* `arg` as an int of 0 to 2**64 - 1 into *out: 1; 0 and no error set when it is an int
 * outside that range (the caller says what is wrong); 0 with an error set when it is no int. */
static inline int r7_u64(PyObject *arg, unsigned long long *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* Returns NULL after PyArg_Parse* failed: an OverflowError (an int beyond what the C
 * parameter holds) becomes a ValueError, as an int out of the parameter's range is
 * answered everywhere else at this boundary; other errors (a TypeError) pass as they are. */
static inline PyObject *r7_refuse_overflow(void) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    PyErr_Format(PyExc_ValueError, "an argument is out of range (%S)", value ? value : Py_None);
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(traceback);
    return NULL;
}

#endif
