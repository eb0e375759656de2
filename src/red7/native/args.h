/* The compiled module's argument parsing (engine_type.c, vector.c). */
#ifndef RED7_ARGS_H
#define RED7_ARGS_H

#include <Python.h>

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
