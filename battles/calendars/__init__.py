"""Private iCalendar feeds (RFC 5545): a campaign's rounds, and a user's battles.

The URLs carry the user's ``CalendarToken``; rotating it revokes every URL handed out before.
"""
