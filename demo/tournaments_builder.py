"""How the demo calendar is written: a `Builder` that finds or creates an event (with its sessions,
divisions and history) and draws eligible entries for it from the seeded people (`demo.tournaments` says
which events there are)."""

import datetime
import random
import zlib

from django.contrib.auth import get_user_model
from django.utils import timezone

from federation.models import Club, Federation, Licence, Membership, Person, Suspension
from tournaments.engine import eligibility
from tournaments.models import Division, Entry, EntryMember, Event, EventChange, Session
from tournaments.services.player_facts import event_terms

E = Event.EventClass
F = Event.Format
S = Event.Status

TEAM_NAMES = [
    "Piros Ászok",
    "Makk Hetesek",
    "Zöld Királyok",
    "Tök Felsők",
    "Betli Brigád",
    "Durchmars Duó és Társa",
    "Negyven-Száz",
    "Kontra Klub",
    "Rebetli Rókák",
    "Húsz-Száz Hősök",
    "Csendes Százasok",
    "Alföldi Ultisok",
]


def at(day, hour, minute=0):
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


class Builder:
    def __init__(self, out):
        self.out = out
        self.today = timezone.localdate()
        self.year = self.today.year
        self.mbsz = Federation.objects.get(code="mbsz")
        self.mausz = Federation.objects.get(code="mausz")
        users = get_user_model().objects
        self.staff = {
            "mbsz": users.filter(username="staff.mbsz@demo.hu").first(),
            "mausz": users.filter(username="staff.mausz@demo.hu").first(),
        }
        self.club_admins = {
            "BBE": users.filter(username="klub.bridzs@demo.hu").first(),
            "SZUE": users.filter(username="klub.ulti@demo.hu").first(),
        }
        self.player_user = users.filter(username="jatekos@demo.hu").first()
        self.created = 0
        self.entries = 0
        # Everything the eligibility check needs, loaded once (the entry service queries per player).
        self.memberships = {
            (m.federation_id, m.person_id): m
            for m in Membership.objects.filter(is_active=True).select_related(
                "person", "club__region", "region"
            )
        }
        self.people = {
            fed.code: sorted(
                (m.person for (fid, _pid), m in self.memberships.items() if fid == fed.pk), key=lambda p: p.pk
            )
            for fed in (self.mbsz, self.mausz)
        }
        self.licences = set(Licence.objects.values_list("person_id", "federation_id", "year"))
        self.suspensions = list(Suspension.objects.all())

    def club(self, short):
        return Club.objects.get(short_name=short)

    def date(self, year, month, day):
        return datetime.date(year, month, min(day, 28) if month == 2 else day)

    # Events -----------------------------------------------------------------------------------------------

    def event(
        self, federation, title, start, *, club=None, status=S.APPROVED, sessions=(), divisions=(), **fields
    ):
        existing = Event.objects.filter(
            federation=federation, title=title, start_date__year=start.year
        ).first()
        if existing:
            return existing, False
        defaults = dict(
            venue=club.name if club else f"{federation.short_name} versenyterem",
            venue_address=f"{club.postcode} {club.city}, {club.address}"
            if club
            else "1051 Budapest, Október 6. utca 12.",
            organiser_name=club.name if club else federation.name,
            organiser_address=f"{club.postcode} {club.city}, {club.address}"
            if club
            else "1051 Budapest, Október 6. utca 12.",
            organiser_phone=club.phone if club else "+36 1 555 0100",
            director_name="Hajdu Gábor" if federation.game == Federation.BRIDGE else "Rehó Lajos",
            prizes="Érmek és oklevelek az 1-3. helyezetteknek.",
            entry_deadline=at(start - datetime.timedelta(days=2), 20),
        )
        if federation.game == Federation.ULTI:
            defaults.setdefault("rule_set", "mausz")
        defaults.update(fields)
        event = Event.objects.create(
            federation=federation, club=club, title=title, start_date=start, status=status, **defaults
        )
        for name, day, hour, minute in sessions:
            Session.objects.create(
                event=event, name=name, starts_at=at(start + datetime.timedelta(days=day), hour, minute)
            )
        for order, name in enumerate(divisions):
            Division.objects.create(event=event, name=name, order=order)
        self._history(event, club)
        self.created += 1
        return event, True

    def _history(self, event, club):
        organiser = self.club_admins.get(club.short_name) if club else None
        staff = self.staff["mbsz" if event.federation.game == Federation.BRIDGE else "mausz"]
        made = timezone.make_aware(datetime.datetime(event.start_date.year - 1, 11, 5, 10, 0))
        steps = [(EventChange.Action.CREATED, organiser or staff, "", S.DRAFT)]
        if event.status != S.DRAFT:
            steps.append((EventChange.Action.SUBMITTED, organiser or staff, S.DRAFT, S.SUBMITTED))
        if event.status == S.PROPOSED:
            steps.append((EventChange.Action.PROPOSED, staff, S.SUBMITTED, S.PROPOSED))
        if event.status in (S.APPROVED, S.CANCELLED):
            steps.append((EventChange.Action.APPROVED, staff, S.SUBMITTED, S.APPROVED))
        if event.status == S.CANCELLED:
            steps.append((EventChange.Action.CANCELLED, organiser or staff, S.APPROVED, S.CANCELLED))
        for i, (action, user, before, after) in enumerate(steps):
            EventChange.objects.create(
                event=event,
                user=user,
                at=min(made + datetime.timedelta(days=3 * i), timezone.now()),
                action=action,
                status_before=before,
                status_after=after,
                reason="A terem nem áll rendelkezésre." if action == EventChange.Action.CANCELLED else "",
            )
        if event.status in Event.PUBLIC_STATUSES or event.status == S.CANCELLED:
            event.published_at = made + datetime.timedelta(days=6)
            event.save(update_fields=["published_at"])

    # Entries ----------------------------------------------------------------------------------------------

    def _facts(self, event, person):
        m = self.memberships.get((event.federation_id, person.pk))
        region = m.playing_region if m else None
        suspended = any(
            s.person_id == person.pk and s.federation_id == event.federation_id and s.covers(event.start_date)
            for s in self.suspensions
        )
        return eligibility.PlayerFacts(
            person_id=person.pk,
            name=person.full_name,
            birth_date=person.birth_date,
            gender=person.gender,
            citizenship=person.citizenship,
            resident_in_hungary=person.resident_in_hungary,
            is_member=m is not None,
            suspended=suspended,
            has_licence=(person.pk, event.federation_id, event.season_year) in self.licences,
            playing_region_id=region.pk if region else None,
        )

    def _eligible(self, event, terms, people):
        facts = [self._facts(event, p) for p in people]
        return not eligibility.check_entry(terms, facts, "team" if event.shape.team_name_required else "")

    def _pool(self, event, rng):
        code = "mbsz" if event.federation.game == Federation.BRIDGE else "mausz"
        pool = list(self.people[code])
        rng.shuffle(pool)
        if event.region_id:
            pool = [p for p in pool if self._facts(event, p).playing_region_id == event.region_id]
        return pool

    def fill(self, event, count, *, pending=0, no_shows=0, withdrawn=0, waiting=0, first=None):
        """Enter `count` entries (plus some waiting) from eligible members, in a reproducible order."""
        if event.status not in (S.APPROVED, S.CANCELLED):
            return
        rng = random.Random(zlib.crc32(event.title.encode()) + event.start_date.year)
        terms = event_terms(event)
        shape = event.shape
        size = shape.min_players if not shape.is_team or shape.lines else rng.choice([4, 4, 4, 5, 6])
        pool = self._pool(event, rng)
        if first:
            pool = [p for p in first if p in pool] + [p for p in pool if p not in first]
        divisions = list(event.divisions.all())
        made, i = 0, 0
        entered_at = at(event.start_date - datetime.timedelta(days=20), 18)
        target = count + waiting
        if event.gender_restriction == Event.Gender.MIXED and size == 2:
            women = [p for p in pool if p.gender == Person.FEMALE]
            men = [p for p in pool if p.gender == Person.MALE]
            groups = [[w, m] for w, m in zip(women, men, strict=False)]
        else:
            groups = [pool[j : j + size] for j in range(0, len(pool) - size + 1, size)]
        for group in groups:
            if made >= target:
                break
            if not self._eligible(event, terms, group):
                continue
            i += 1
            status = Entry.Status.ACTIVE if made < count else Entry.Status.WAITING
            entry = Entry.objects.create(
                event=event,
                division=divisions[made % len(divisions)] if divisions else None,
                team_name=TEAM_NAMES[made % len(TEAM_NAMES)]
                if shape.team_name_required
                else (f"{group[0].last_name} csapata" if shape.is_team else ""),
                status=status,
                waiting_since=entered_at + datetime.timedelta(hours=made)
                if status == Entry.Status.WAITING
                else None,
                entered_at=entered_at + datetime.timedelta(hours=made),
                entered_by=group[0].user,
            )
            unconfirmed = made < pending and shape.partner_confirms
            for pos, person in enumerate(group):
                membership = self.memberships.get((event.federation_id, person.pk))
                EntryMember.objects.create(
                    entry=entry,
                    person=person,
                    position=pos + 1,
                    line=shape.lines[pos] if shape.lines else "",
                    is_captain=shape.is_team and pos == 0,
                    home_club=membership.club if membership else None,
                    confirmed_at=None if unconfirmed and pos == 1 else entry.entered_at,
                )
            made += 1
            self.entries += 1
        past = event.start_date < self.today
        active = list(event.entries.filter(status=Entry.Status.ACTIVE).order_by("pk"))
        for entry in active[-withdrawn:] if withdrawn else []:
            entry.status = Entry.Status.WITHDRAWN
            entry.withdrawn_at = entry.entered_at + datetime.timedelta(days=3)
            entry.save(update_fields=["status", "withdrawn_at"])
        if past:
            for entry in active[:no_shows]:
                entry.no_show = True
                entry.save(update_fields=["no_show"])
