import EditIcon from '@mui/icons-material/Edit';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { BOARDS, GENDERS, GRADES } from '@tc/domain/constants';
import { STUDENT_COLUMNS } from '@tc/domain/admin-tools';
import { isoToDisplayDate, isValidIsoDate } from '@tc/domain/dates';
import { gradeLabel } from '@tc/domain/registration';
import type { StudentRecord } from '@tc/domain/student';

/** The admin table's columns; Edit opens the student's dialog. */
export function studentColumns(onEdit: (objectId: string) => void): GridColDef<StudentRecord>[] {
  return [
    { field: 'id', headerName: STUDENT_COLUMNS.id, type: 'number', width: 72, align: 'left', headerAlign: 'left' },
    { field: 'fullname', headerName: STUDENT_COLUMNS.fullname, flex: 1.2, minWidth: 160 },
    {
      field: 'gender',
      headerName: STUDENT_COLUMNS.gender,
      type: 'singleSelect',
      valueOptions: [...GENDERS],
      width: 100,
    },
    { field: 'mobile', headerName: STUDENT_COLUMNS.mobile, width: 120 },
    { field: 'email', headerName: STUDENT_COLUMNS.email, flex: 1.2, minWidth: 170 },
    {
      field: 'dob',
      headerName: STUDENT_COLUMNS.dob,
      width: 136,
      valueGetter: (value) => (typeof value === 'string' && isValidIsoDate(value) ? isoToDisplayDate(value) : value),
    },
    {
      field: 'board',
      headerName: STUDENT_COLUMNS.board,
      type: 'singleSelect',
      valueOptions: [...BOARDS],
      width: 96,
    },
    {
      field: 'grade',
      headerName: STUDENT_COLUMNS.grade,
      type: 'singleSelect',
      valueOptions: GRADES.map((grade) => ({ value: grade, label: gradeLabel(grade) })),
      width: 76,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: 'Edit',
      width: 64,
      getActions: ({ id, row }) => [
        <GridActionsCellItem
          key="edit"
          icon={<EditIcon />}
          label="Edit"
          aria-label={`Edit ${row.fullname}`}
          onClick={() => onEdit(String(id))}
        />,
      ],
    },
  ];
}
