// The student the dashboard tests show, and the session the browser keeps for them.

import { STUDENT_SESSION_KEY } from '@tc/domain/constants';

export const profile = {
  fullname: 'Riya Sharma',
  email: 'riya@example.com',
  mobile: '9876543210',
  board: 'ICSE',
  grade: 3,
  gender: 'Daughter',
  dob: '2016-02-29',
  id: 12,
};

export const signIn = () =>
  window.sessionStorage.setItem(STUDENT_SESSION_KEY, JSON.stringify({ tokenStudent: 'r:token' }));
