import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import SaveIcon from '@mui/icons-material/Save';
import { GridActionsCellItem, GridRowModes, type GridColDef, type GridRowModesModel } from '@mui/x-data-grid';
import { API_DATE_FORMAT, BOARDS, GENDERS, GRADES } from '@tc/domain/constants';
import { isoToDisplayDate, isValidIsoDate } from '@tc/domain/dates';
import { gradeLabel } from '@tc/domain/registration';
import type { StudentRecord } from '@tc/domain/student';
import dayjs from 'dayjs';

/** YYYY-MM-DD to a local Date for the grid's date editor (no time-zone shift). */
export function isoToDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !isValidIsoDate(value)) return null;
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** A grid date value back to YYYY-MM-DD. */
export function dateToIso(value: unknown): string | null {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return dayjs(value).format(API_DATE_FORMAT);
  if (typeof value === 'string') return value;
  return null;
}

interface ColumnActions {
  rowModesModel: GridRowModesModel;
  onEdit: (objectId: string) => void;
  onSave: (objectId: string) => void;
  onCancel: (objectId: string) => void;
}

/** The admin table's columns (seed-spec §2; product.md §7: all but ID and Full Name editable). */
export function studentColumns({ rowModesModel, onEdit, onSave, onCancel }: ColumnActions): GridColDef<StudentRecord>[] {
  return [
    { field: 'id', headerName: 'ID', type: 'number', width: 80, align: 'left', headerAlign: 'left' },
    { field: 'fullname', headerName: 'Full Name', flex: 1, minWidth: 180 },
    {
      field: 'gender',
      headerName: 'Gender',
      type: 'singleSelect',
      valueOptions: [...GENDERS],
      width: 120,
      editable: true,
    },
    { field: 'mobile', headerName: 'Mobile', width: 140, editable: true },
    { field: 'email', headerName: 'Email', flex: 1, minWidth: 220, editable: true },
    {
      field: 'dob',
      headerName: 'Date of Birth',
      type: 'date',
      width: 150,
      editable: true,
      valueGetter: (value) => isoToDate(value),
      valueFormatter: (value: Date | null) => (value ? isoToDisplayDate(dayjs(value).format(API_DATE_FORMAT)) : ''),
    },
    {
      field: 'board',
      headerName: 'Board',
      type: 'singleSelect',
      valueOptions: [...BOARDS],
      width: 110,
      editable: true,
    },
    {
      field: 'grade',
      headerName: 'Grade',
      type: 'singleSelect',
      valueOptions: GRADES.map((grade) => ({ value: grade, label: gradeLabel(grade) })),
      width: 100,
      editable: true,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: 'Edit',
      width: 110,
      getActions: ({ id }) => {
        const objectId = String(id);
        if (rowModesModel[objectId]?.mode === GridRowModes.Edit) {
          return [
            <GridActionsCellItem key="save" icon={<SaveIcon />} label="Save" color="primary" onClick={() => onSave(objectId)} />,
            <GridActionsCellItem key="cancel" icon={<CloseIcon />} label="Cancel" onClick={() => onCancel(objectId)} />,
          ];
        }
        return [<GridActionsCellItem key="edit" icon={<EditIcon />} label="Edit" onClick={() => onEdit(objectId)} />];
      },
    },
  ];
}
