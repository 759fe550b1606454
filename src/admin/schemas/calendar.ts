import { Type } from 'typebox';

export const CalendarFeed = Type.Object(
  {
    url: Type.String({
      description:
        'The feed (RFC 5545) that calendar apps subscribe to; shown only now. Anyone with it reads the agent’s appointments.',
      examples: ['http://localhost:3000/v1/calendar/3q2-Xb7…Yw.ics'],
    }),
  },
  { $id: 'CalendarFeed', additionalProperties: false },
);
