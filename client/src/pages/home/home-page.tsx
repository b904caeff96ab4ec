import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '@tc/domain/constants';
import { LinkTo, Route } from '@tc/domain/routes';
import { AnimatedCanvas } from '../../components/animated-canvas.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { AdminIcon, LoginIcon, RegisterIcon } from './home-icons.tsx';

// The first page most visitors see: plain markup styled by styles/site.css, so
// it paints from the pre-rendered HTML and its JavaScript stays small.

interface HomeCardProps {
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
}

function HomeCard({ icon, title, text, action }: HomeCardProps) {
  return (
    <section className="home-card">
      <div className="home-card__icon" aria-hidden="true">
        {icon}
      </div>
      <h2>{title}</h2>
      <p>{text}</p>
      <div className="home-card__action">{action}</div>
    </section>
  );
}

export default function HomePage() {
  return (
    <div className="home">
      <PageTitle title="Online tuition for grades 1-9" />
      <AnimatedCanvas variant="bubbles" />
      <div className="home__inner">
        <div className="home__intro">
          <h1>Guided Learning for Grades 1-9</h1>
          <p className="home__lead">
            Welcome to {PRODUCT_NAME}! We help children in grades 1 to 9 learn with confidence through structured
            lessons, interactive teaching and regular assessments. Register your child in a few minutes, and students
            can log in any time to see their profile, progress and study schedule.
          </p>
        </div>
        <div className="home__cards">
          <HomeCard
            icon={<RegisterIcon />}
            title="Student Registration"
            text="New here? Register your child with a one-time code sent to your mobile number and start the learning journey today."
            action={
              <LinkButton to={LinkTo.register} color="secondary" size="large" fullWidthOnPhone>
                Register Now
              </LinkButton>
            }
          />
          <HomeCard
            icon={<LoginIcon />}
            title="Already Registered? Log In to Your Account"
            text="Log in with your e-mail address or mobile number to see your profile, your progress and your study schedule."
            action={
              <LinkButton to={Route.studentLogin} size="large" fullWidthOnPhone>
                Student Login
              </LinkButton>
            }
          />
          <HomeCard
            icon={<AdminIcon />}
            title="Admin Access for Managing Students"
            text="Administrators can view, manage and update the details of every registered student."
            action={
              <LinkButton to={Route.adminLogin} variant="outlined" size="large" fullWidthOnPhone>
                Admin Login
              </LinkButton>
            }
          />
        </div>
        <div className="visually-hidden">
          <h2>Tuition classes for grades 1 to 9</h2>
          <p>
            Online tuition classes for grade 1, grade 2, grade 3, grade 4, grade 5, grade 6, grade 7, grade 8 and grade
            9 students. Home tuition, coaching classes and tutors near me for CBSE, ICSE and State board syllabus:
            mathematics, science, English and social studies tuition for primary and middle school children.
          </p>
        </div>
      </div>
    </div>
  );
}
