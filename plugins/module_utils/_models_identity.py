# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Options models for users, tokens, setup keys, the account settings and the instance's setup."""

from __future__ import annotations

import re
from typing import List, Optional, Union

from ansible_collections.nms.overlay.plugins.module_utils._time import parse_duration
from ansible_collections.nms.overlay.plugins.module_utils._models import NonEmptyStr, Options, UrlStr, field_validator

KEY_EXPIRES_MIN = 86400
KEY_EXPIRES_MAX = 31536000
LOGIN_EXPIRATION_MIN = 3600
LOGIN_EXPIRATION_MAX = 15552000
DOMAIN_NAME = re.compile(r'^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$')
TOKEN_DAYS_MIN = 1
TOKEN_DAYS_MAX = 365
PASSWORD_LENGTH = (8, 72)  # what v0.77 accepts for the owner's password at setup (422 otherwise)
INVITE_EXPIRES_MIN = 3600


def _bounded_duration(value, low, high, what):
    seconds = parse_duration(value)
    if seconds is None:
        return None
    if not low <= seconds <= high:
        raise ValueError('must be between %d and %d seconds (%s); %d was given' % (low, high, what, seconds))
    return seconds


class UserOptions(Options):
    """A user: an email that looks like one, non-empty names and group references."""

    email: Optional[NonEmptyStr] = None
    name: Optional[NonEmptyStr] = None
    auto_groups: Optional[List[NonEmptyStr]] = None

    @field_validator('email')
    @classmethod
    def _email(cls, value):
        if value is not None and ('@' not in value or value.startswith('@') or value.endswith('@')):
            raise ValueError("'%s' is not an email address" % value)
        return value


class UserInviteOptions(UserOptions):
    """An invite link: the user's rules (an email that looks like one, a name, group references) and a lifetime of
    at least an hour (servers: "invite expiration must be at least 1 hour")."""

    expires_in: Optional[int] = None

    @field_validator('expires_in')
    @classmethod
    def _at_least_an_hour(cls, value):
        if value is not None and value < INVITE_EXPIRES_MIN:
            raise ValueError('must be at least %d (one hour, in seconds); %d was given' % (INVITE_EXPIRES_MIN, value))
        return value


class IdentityProviderOptions(Options):
    """An identity provider: non-empty name and client id, the issuer a full http(s) URL (the server reads its
    /.well-known/openid-configuration)."""

    name: Optional[NonEmptyStr] = None
    issuer: Optional[UrlStr] = None
    client_id: Optional[NonEmptyStr] = None


class TokenOptions(Options):
    """A personal access token: a name and a lifetime of 1 to 365 days."""

    name: Optional[NonEmptyStr] = None
    expires_in: Optional[int] = None

    @field_validator('expires_in')
    @classmethod
    def _days(cls, value):
        if value is not None and not TOKEN_DAYS_MIN <= value <= TOKEN_DAYS_MAX:
            raise ValueError('must be between %d and %d days; %d was given' % (TOKEN_DAYS_MIN, TOKEN_DAYS_MAX, value))
        return value


class InstanceOptions(Options):
    """The instance's setup: the owner's email (a user's rule), a name, a password of 8 to 72 characters and the owner's
    first token's lifetime (a token's rule). A value that is no string is refused before, by its type (strict_texts)."""

    email: Optional[NonEmptyStr] = None
    name: Optional[NonEmptyStr] = None
    password: Optional[str] = None
    pat_expire_in: Optional[int] = None

    @field_validator('email')
    @classmethod
    def _email(cls, value):
        return UserOptions._email(value)  # pylint: disable=protected-access  # the user's rule, the same owner

    @field_validator('password')
    @classmethod
    def _password(cls, value):  # its value is never in the message
        if value is not None and not PASSWORD_LENGTH[0] <= len(value) <= PASSWORD_LENGTH[1]:
            raise ValueError('must be %d to %d characters long' % PASSWORD_LENGTH)
        return value

    @field_validator('pat_expire_in')
    @classmethod
    def _days(cls, value):
        return TokenOptions._days(value)  # pylint: disable=protected-access  # a personal access token's lifetime


class UserPasswordOptions(Options):
    """A password change: the new and the old password not empty (any other text is the server's to judge), and not
    the same (servers refuse a change to the same password). Their values are never in a message."""

    password: Optional[str] = None
    old_password: Optional[str] = None

    @field_validator('password', 'old_password')
    @classmethod
    def _given(cls, value):
        if value is not None and not value:
            raise ValueError('must not be empty')
        return value

    @field_validator('old_password')
    @classmethod
    def _another(cls, value, info):
        if value and value == info.data.get('password'):
            raise ValueError('must differ from password (servers refuse a change to the same password)')
        return value


class SetupKeyOptions(Options):
    """A setup key: lifetime bounds and a usage limit that is not negative."""

    name: Optional[NonEmptyStr] = None
    expires_in: Optional[Union[int, str]] = None
    usage_limit: Optional[int] = None
    auto_groups: Optional[List[NonEmptyStr]] = None

    @field_validator('expires_in', mode='before')
    @classmethod
    def _expires_in(cls, value):
        return _bounded_duration(value, KEY_EXPIRES_MIN, KEY_EXPIRES_MAX, '1 to 365 days')

    @field_validator('usage_limit')
    @classmethod
    def _usage_limit(cls, value):
        if value is not None and value < 0:
            raise ValueError('must be 0 (unlimited) or a positive number of uses; %d was given' % value)
        return value


class AccountSettingsOptions(Options):
    """The account settings: peer login and inactivity expiration bounds, non-empty group names, a DNS domain name."""

    peer_login_expiration: Optional[Union[int, str]] = None
    peer_inactivity_expiration: Optional[Union[int, str]] = None
    jwt_allow_groups: Optional[List[NonEmptyStr]] = None
    dns_domain: Optional[str] = None

    @field_validator('peer_inactivity_expiration', mode='before')
    @classmethod
    def _inactivity(cls, value):
        seconds = parse_duration(value)
        if seconds is not None and seconds < 1:
            raise ValueError('must be a positive duration (seconds, or such as 30m, 12h, 7d); %d was given' % seconds)
        return seconds

    @field_validator('dns_domain')
    @classmethod
    def _dns_domain(cls, value):
        if value and not DOMAIN_NAME.match(value):
            raise ValueError("'%s' is not a domain name such as corp.example.com (letters, digits and hyphens in "
                             "dot-separated labels, no wildcard); '' restores the server's default" % value)
        return value

    @field_validator('peer_login_expiration', mode='before')
    @classmethod
    def _expiration(cls, value):
        return _bounded_duration(value, LOGIN_EXPIRATION_MIN, LOGIN_EXPIRATION_MAX, '1 hour to 180 days')
