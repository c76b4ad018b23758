#!/usr/bin/env python3
"""Writes the public names agc's diagnostics check against (one X-macro row each).

  public_api.py tf [--source TEXT]... GOLDEN.pbtxt... > transpiler/emit/tf_public_api.def
      TensorFlow's names, from its API golden files
      (tensorflow/tools/api/golden/v2/tensorflow*.pbtxt in TensorFlow's
      repository; for tf.keras, Keras 2's tf_keras/api/golden/v2/ in
      tf-keras or keras/api/golden/v2/ in keras before Keras 3): each file
      lists one module's members and their argspecs. The files may come
      from several commits; each --source line records where some came from.
  public_api.py python > transpiler/emit/py_public_api.def
      NumPy's and the standard modules' names, read from the modules this
      Python imports (numpy and the modules of runtime/api/py_modules.def).

A row is AG_PUBLIC_NAME(module, path, kind, params): `module` is "tensorflow",
"numpy" or a standard module; `path` the dotted name under it ("math.abs");
`kind` Module, Class, Function or Value; `params` a function's parameters as
Python writes them, each with a default marked `=` ("x, name=", "equation,
*inputs, **kwargs"), "" otherwise or when unknown (then `?`).
AG_PUBLIC_MODULE(module, path) marks a module whose members are all listed:
a name missing under it is not in the library. Under a module not so marked
(one whose golden file was not read) nothing is known.
"""
import argparse
import inspect
import os
import re
import sys
import textwrap


def tokens(text):
    """The tokens of protobuf text format: names, strings, braces, colons."""
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c == '#':
            i = text.index('\n', i) if '\n' in text[i:] else len(text)
        elif c in '{}:':
            yield c
            i += 1
        elif c in '"\'':
            out, i = [], i + 1
            while text[i] != c:
                if text[i] == '\\':
                    i += 1
                out.append(text[i])
                i += 1
            yield ('str', ''.join(out))
            i += 1
        else:
            m = re.match(r'[\w.]+', text[i:])
            yield m.group(0)
            i += len(m.group(0))


def parse_pbtxt(text):
    """A message as a list of (field, value) pairs; a value is a str or a message."""
    toks = list(tokens(text))
    pos = 0

    def message(end):
        nonlocal pos
        fields = []
        while pos < len(toks) and toks[pos] != end:
            name = toks[pos]
            pos += 1
            if toks[pos] == ':':
                pos += 1
            if toks[pos] == '{':
                pos += 1
                fields.append((name, message('}')))
                pos += 1
            else:
                fields.append((name, toks[pos][1] if isinstance(toks[pos], tuple) else toks[pos]))
                pos += 1
        return fields

    return message(None)


def field(msg, name):
    return next((v for k, v in msg if k == name), None)


def argspec_params(spec):
    """'args=[\\'x\\', \\'name\\'], varargs=None, keywords=None, defaults=[\\'None\\'], ' -> 'x, name='."""
    m = re.match(r"args=\[(.*?)\], varargs=(\w+), keywords=(\w+), defaults=(None|\[.*\])", spec)
    if not m:
        raise ValueError('unknown argspec: ' + spec)
    args = re.findall(r"'(\w+)'", m.group(1))
    defaults = m.group(4)
    # Each default is one quoted item: count the items, not their commas.
    ndefaults = 0 if defaults == 'None' else len(re.findall(r"'[^']*'|\"[^\"]*\"", defaults[1:-1]))
    params = [a + ('=' if i >= len(args) - ndefaults else '') for i, a in enumerate(args)]
    if m.group(2) != 'None':
        params.append('*' + m.group(2))
    if m.group(3) != 'None':
        params.append('**' + m.group(3))
    return ', '.join(params)


def member_kind(mtype):
    # Goldens print a member's type as Python 2 did ("<type 'module'>") or as
    # Python 3 does ("<class 'module'>", Keras's); a class's type is `type` or
    # a metaclass (ABCMeta, EnumType, protobuf's MessageMeta, pybind11_type,
    # tf.test.Benchmark's _BenchmarkRegistrar).
    if mtype in ("<type 'module'>", "<class 'module'>"):
        return 'Module'
    if mtype in ("<type 'type'>", "<class 'type'>") or re.search(
            r'Meta|EnumType|metaclass|pybind11_type|Registrar', mtype, re.I):
        return 'Class'
    if 'function' in mtype.lower():
        return 'Function'
    return 'Value'


def tf_rows(files):
    rows, modules = [], []
    for f in files:
        msg = parse_pbtxt(open(f).read())
        path = field(msg, 'path')
        module = field(msg, 'tf_module')
        if path is None or module is None:
            continue  # a class's golden file
        prefix = path[len('tensorflow.'):] + '.' if path != 'tensorflow' else ''
        modules.append(prefix[:-1])
        for kind, m in module:
            if kind == 'member':
                rows.append((prefix + field(m, 'name'), member_kind(field(m, 'mtype')), ''))
            elif kind == 'member_method':
                rows.append((prefix + field(m, 'name'), 'Function', argspec_params(field(m, 'argspec'))))
    return 'tensorflow', sorted(modules), sorted(rows)


def python_params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return '?'
    out, star = [], False
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            out.append('*' + p.name)
            star = True
        elif p.kind == p.VAR_KEYWORD:
            out.append('**' + p.name)
        else:
            if p.kind == p.KEYWORD_ONLY and not star:
                out.append('*')
                star = True
            out.append(p.name + ('=' if p.default is not p.empty else ''))
            if p.kind == p.POSITIONAL_ONLY and (
                    len(out) == len(sig.parameters) or
                    list(sig.parameters.values())[len(out)].kind != p.POSITIONAL_ONLY):
                out.append('/')
    return ', '.join(out)


def python_kind(obj):
    if inspect.ismodule(obj):
        return 'Module'
    if inspect.isclass(obj):
        return 'Class'
    if callable(obj):
        return 'Function'
    return 'Value'


def python_rows(top, submodules):
    import importlib
    rows, modules = [], []
    for sub in [''] + submodules:
        mod = importlib.import_module(top + ('.' + sub if sub else ''))
        prefix = sub + '.' if sub else ''
        modules.append(sub)
        for name in sorted(dir(mod)):
            if name.startswith('_'):
                continue
            obj = getattr(mod, name)
            kind = python_kind(obj)
            rows.append((prefix + name, kind, python_params(obj) if kind == 'Function' else ''))
    return rows, modules


def emit(out, module, modules, rows):
    for m in modules:
        out.write('AG_PUBLIC_MODULE("%s", "%s")\n' % (module, m))
    for path, kind, params in rows:
        out.write('AG_PUBLIC_NAME("%s", "%s", %s, "%s")\n' % (module, path, kind, params))


HEADER = """// Generated by scripts/public_api.py: do not edit. {what}
// Rows: AG_PUBLIC_MODULE(module, path), a module whose members are all
// listed; AG_PUBLIC_NAME(module, path, kind, params), one public name and, for
// a function, its parameters ("x, name=": `=` marks a default; "?" unknown).
#ifndef AG_PUBLIC_MODULE
#define AG_PUBLIC_MODULE(module, path)
#endif
#ifndef AG_PUBLIC_NAME
#define AG_PUBLIC_NAME(module, path, kind, params)
#endif
"""
FOOTER = "#undef AG_PUBLIC_MODULE\n#undef AG_PUBLIC_NAME\n"


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    tf = sub.add_parser('tf')
    tf.add_argument('--source', action='append', default=[], help='a provenance line for the header')
    tf.add_argument('--also', action='append', default=[], metavar='PATH=KIND',
                    help="a name of the seeds' era (TF 2.10-2.15) that the golden files read no longer "
                         "list, such as estimator=Module (removed in TF 2.16)")
    tf.add_argument('files', nargs='+')
    sub.add_parser('python')
    a = ap.parse_args()
    out = sys.stdout
    if a.cmd == 'tf':
        what = "TensorFlow's public API, from its API\n// golden files:\n" + ''.join(
            '//   %s\n' % line for s in a.source
            for line in textwrap.wrap(s, 92, subsequent_indent='  ', break_on_hyphens=False))
        out.write(HEADER.format(what=what.rstrip('\n')))
        module, modules, rows = tf_rows(a.files)
        known = {path for path, _, _ in rows}
        for also in a.also:
            path, kind = also.split('=')
            if path not in known:
                rows.append((path, kind, '?' if kind == 'Function' else ''))
        rows.sort(key=lambda r: r[0])
        emit(out, module, modules, rows)
    else:
        import numpy
        what = 'The public names of NumPy %s and of Python %s\'s\n// standard modules agc compiles.' % (
            numpy.__version__, '.'.join(map(str, sys.version_info[:3])))
        out.write(HEADER.format(what=what))
        rows, modules = python_rows('numpy', ['random', 'linalg', 'fft'])
        emit(out, 'numpy', modules, rows)
        table = open(os.path.join(os.path.dirname(__file__), '..', 'runtime', 'api', 'py_modules.def')).read()
        for name in re.findall(r'^AG_PY_MODULE\("(\w+)"\)', table, re.M):
            rows, modules = python_rows(name, [])
            emit(out, name, modules, rows)
    out.write(FOOTER)


if __name__ == '__main__':
    main()
