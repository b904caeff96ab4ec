// A student's progress as the server answers it: one result, in Mathematics.

export const progress = {
  assessments: [
    {
      objectId: 'a1',
      subject: 'Mathematics',
      title: 'Unit Test 3',
      date: '2026-11-20',
      maxMarks: 20,
      absent: false,
      marks: 18,
      percentage: 90,
    },
  ],
  subjects: [
    {
      subject: 'Mathematics',
      averagePercentage: 90,
      points: [{ date: '2026-11-20', title: 'Unit Test 3', percentage: 90 }],
    },
  ],
};
