"""``red7 admin``: the web server's admins, made from the command line (where only the
machine's operator is), on the server's database (``--database-url`` or
``RED7_DATABASE_URL``, as ``red7 serve``):

* ``red7 admin add NAME``: a new account with the admin role (its password asked twice,
  not echoed; ``--password-stdin``: read from the standard input, for scripts);
* ``red7 admin grant NAME``: give an existing account the admin role;
* ``red7 admin revoke NAME``: take it back (the account stays, a member);
* ``red7 admin ban NAME``: ban an account: it cannot log in, its login sessions end, and
  its seats' tokens are revoked at every table. No server is asked: the seats change in
  the database (:meth:`~red7.web.storage.store.Store.revoke_account_seats`), each table
  moving to its next version, and every running server reads them back at its next look
  at the tables' versions (every few seconds), closing the connections of those tokens;
* ``red7 admin unban NAME``: lift the ban (it gives no seat back);
* ``red7 admin list``: the accounts, their role and whether they are banned.

The database is brought to this release's schema first (as ``red7 db upgrade`` does).
"""

from __future__ import annotations

import argparse
import getpass
import sys

from ..ui.i18n import _, ngettext
from .common import Commands, UsageError
from .serve import _check_drivers, _database_option, _database_url


def add_commands(sub: Commands) -> None:
    p = sub.add_parser(
        "admin", help=_("the web game's admins and accounts: add an admin, grant or revoke the role, ban, list")
    )
    admin_sub = p.add_subparsers(dest="admin_command", metavar="COMMAND", required=True)
    add = admin_sub.add_parser("add", help=_("a new account with the admin role (its password is asked)"))
    add.add_argument("name", metavar="NAME", help=_("its username"))
    add.add_argument(
        "--password-stdin", action="store_true", help=_("read the password from the standard input (one line)")
    )
    grant = admin_sub.add_parser("grant", help=_("give an existing account the admin role"))
    grant.add_argument("name", metavar="NAME", help=_("its username"))
    revoke = admin_sub.add_parser("revoke", help=_("take the admin role back from an account"))
    revoke.add_argument("name", metavar="NAME", help=_("its username"))
    ban = admin_sub.add_parser(
        "ban", help=_("ban an account: it cannot log in, its login sessions end, its seats' tokens are revoked")
    )
    ban.add_argument("name", metavar="NAME", help=_("its username"))
    unban = admin_sub.add_parser("unban", help=_("lift an account's ban"))
    unban.add_argument("name", metavar="NAME", help=_("its username"))
    listing = admin_sub.add_parser("list", help=_("the accounts, their role and whether they are banned"))
    for parser in (add, grant, revoke, ban, unban, listing):
        _database_option(parser)


def _password(from_stdin: bool) -> str:
    """The new admin's password: a line of the standard input, or asked twice without echo."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass(_("Password: "))
    if getpass.getpass(_("The password again: ")) != first:
        raise UsageError(_("the two passwords differ"))
    return first


def cmd_admin(args: argparse.Namespace) -> int:
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from ..web.accounts.accounts import Accounts
        from ..web.http.refusals import Refused
        from ..web.storage.store import Store
    except ImportError as err:
        raise UsageError(
            _("red7 admin needs the web extra: pip install 'red7[web]' ({module} is missing)").format(module=err.name)
        ) from None
    url = _database_url(args)
    _check_drivers(url, None)
    try:
        store = Store(url)
    except SQLAlchemyError as err:
        raise UsageError(_("cannot use the database: {reason}").format(reason=str(err).splitlines()[0])) from None
    try:
        store.upgrade()
        accounts = Accounts(store)
        if args.admin_command == "add":
            account = accounts.add(args.name, _password(args.password_stdin), admin=True)
            print(_("red7: {name} is an admin").format(name=account.username))
        elif args.admin_command in ("grant", "revoke"):
            account = accounts.set_admin(args.name, args.admin_command == "grant")
            if account.admin:
                print(_("red7: {name} is an admin").format(name=account.username))
            else:
                print(_("red7: {name} is no longer an admin").format(name=account.username))
        elif args.admin_command == "ban":
            account = accounts.named(args.name)
            if account.admin:
                raise UsageError(
                    _("{name} is an admin: take the role back first (red7 admin revoke)").format(name=account.username)
                )
            accounts.ban(account.username)
            tables = store.revoke_account_seats(account.id)  # (the servers read them back at their next look)
            said = ngettext(
                "red7: {name} is banned; its seat tokens are revoked at {n} table",
                "red7: {name} is banned; its seat tokens are revoked at {n} tables",
                len(tables),
            )
            print(said.format(name=account.username, n=len(tables)))
        elif args.admin_command == "unban":
            account = accounts.ban(args.name, False)
            print(_("red7: {name} is no longer banned").format(name=account.username))
        else:
            for row in accounts.listing(limit=100_000):
                marks = [_("admin") if row["admin"] else "", _("banned") if row["banned"] else ""]
                print(" ".join([row["username"], *(mark for mark in marks if mark)]))
    except Refused as err:
        raise UsageError(err.message) from None
    except SQLAlchemyError as err:
        raise UsageError(_("cannot use the database: {reason}").format(reason=str(err).splitlines()[0])) from None
    finally:
        store.close()
    return 0
