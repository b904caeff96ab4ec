import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { Route } from '@tc/domain/routes';
import { AnimatedCanvas } from '../../components/animated-canvas.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';

interface HomeCardProps {
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
}

function HomeCard({ icon, title, text, action }: HomeCardProps) {
  return (
    <Card
      component="section"
      sx={{ flex: 1, p: { xs: 2.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}
    >
      <Box
        aria-hidden="true"
        sx={(t) => ({
          width: 48,
          height: 48,
          borderRadius: 3,
          display: 'grid',
          placeItems: 'center',
          color: 'primary.main',
          bgcolor: alpha(t.palette.primary.main, 0.08),
        })}
      >
        {icon}
      </Box>
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ flex: 1 }}>
        {text}
      </Typography>
      <Box sx={{ pt: 1 }}>{action}</Box>
    </Card>
  );
}

export default function HomePage() {
  return (
    <Box
      sx={(t) => ({
        position: 'relative',
        overflow: 'hidden',
        flex: 1,
        // Decorative textures: a dotted grid and two soft glows, behind everything.
        backgroundImage: [
          `radial-gradient(${alpha(t.palette.primary.main, 0.07)} 1px, transparent 1px)`,
          `radial-gradient(circle at 10% 0%, ${alpha(t.palette.secondary.main, 0.18)}, transparent 45%)`,
          `radial-gradient(circle at 90% 30%, ${alpha(t.palette.primary.light, 0.14)}, transparent 50%)`,
        ].join(','),
        backgroundSize: '22px 22px, 100% 100%, 100% 100%',
      })}
    >
      <PageTitle title="Online tuition for grades 1-9" />
      <AnimatedCanvas variant="bubbles" />
      <Container maxWidth="lg" sx={{ position: 'relative', zIndex: 1, py: { xs: 4, md: 8 } }}>
        <Stack spacing={2} sx={{ maxWidth: 760, mb: { xs: 4, md: 6 } }}>
          <Typography variant="h1">Guided Learning for Grades 1-9</Typography>
          <Typography sx={{ fontSize: { xs: '1.05rem', sm: '1.2rem' } }} color="text.secondary">
            Welcome to {PRODUCT_NAME}! We help children in grades 1 to 9 learn with confidence through structured
            lessons, interactive teaching and regular assessments. Register your child in a few minutes, and students
            can log in any time to see their profile, progress and study schedule.
          </Typography>
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 2, md: 3 }} sx={{ alignItems: 'stretch' }}>
          <HomeCard
            icon={<HowToRegOutlined />}
            title="Student Registration"
            text="New here? Register your child with a one-time code sent to your mobile number and start the learning journey today."
            action={
              <LinkButton to="/Registeruser" color="secondary" size="large" fullWidthOnPhone>
                Register Now
              </LinkButton>
            }
          />
          <HomeCard
            icon={<LoginOutlined />}
            title="Already Registered? Log In to Your Account"
            text="Log in with your e-mail address or mobile number to see your profile, your progress and your study schedule."
            action={
              <LinkButton to={Route.studentLogin} size="large" fullWidthOnPhone>
                Student Login
              </LinkButton>
            }
          />
          <HomeCard
            icon={<AdminPanelSettingsOutlined />}
            title="Admin Access for Managing Students"
            text="Administrators can view, manage and update the details of every registered student."
            action={
              <LinkButton to={Route.adminLogin} variant="outlined" size="large" fullWidthOnPhone>
                Admin Login
              </LinkButton>
            }
          />
        </Stack>
        <Box className="visually-hidden">
          <h2>Tuition classes for grades 1 to 9</h2>
          <p>
            Online tuition classes for grade 1, grade 2, grade 3, grade 4, grade 5, grade 6, grade 7, grade 8 and grade
            9 students in the city area. Home tuition, coaching classes and tutors near me for CBSE, ICSE and State
            board syllabus: mathematics, science, English and social studies tuition for primary and middle school
            children.
          </p>
        </Box>
      </Container>
    </Box>
  );
}
